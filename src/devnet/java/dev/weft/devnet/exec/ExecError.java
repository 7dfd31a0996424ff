package dev.weft.devnet.exec;

/**
 * A message the chain refuses: the ABCI code and codespace of the SDK or module error, and its log text. A tx with
 * such a message fails as a whole (code, codespace, {@code failed to execute message; message index: i: …}).
 */
public final class ExecError extends RuntimeException {
    private final String codespace;
    private final int code;

    public ExecError(String codespace, int code, String message) {
        super(message, null, false, false);
        this.codespace = codespace;
        this.code = code;
    }

    public String codespace() {
        return codespace;
    }

    public int code() {
        return code;
    }

    /** The SDK's {@code invalid address} (sdk, 7). */
    public static ExecError invalidAddress(String what) {
        return new ExecError("sdk", 7, what + ": invalid address");
    }

    /** The SDK's {@code invalid coins} (sdk, 10). */
    public static ExecError invalidCoins(String what) {
        return new ExecError("sdk", 10, what + ": invalid coins");
    }
}
