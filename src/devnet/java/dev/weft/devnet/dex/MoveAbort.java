package dev.weft.devnet.dex;

/**
 * A Move abort: the module that aborted and its code ({@code error::invalid_state(EMIN_RETURN)} = 0x30003 = 196611),
 * worded as the VM reports it: {@code VM aborted: location=<64 hex digits>::<module>, code=<code>}.
 */
public final class MoveAbort extends RuntimeException {
    private final String module;
    private final long code;

    public MoveAbort(String module, long code) {
        this("0x1", module, code);
    }

    /** An abort of a module deployed at {@code address} (0x and up to 64 hex digits). */
    MoveAbort(String address, String module, long code) {
        super(
                "VM aborted: location=" + MoveViews.address(address).substring(2) + "::" + module + ", code=" + code,
                null,
                false,
                false);
        this.module = module;
        this.code = code;
    }

    public String module() {
        return module;
    }

    public long code() {
        return code;
    }

    /** {@code error::invalid_argument(reason)}. */
    static MoveAbort invalidArgument(String module, long reason) {
        return new MoveAbort(module, 0x10000 | reason);
    }

    /** {@code error::invalid_state(reason)}. */
    static MoveAbort invalidState(String module, long reason) {
        return new MoveAbort(module, 0x30000 | reason);
    }
}
