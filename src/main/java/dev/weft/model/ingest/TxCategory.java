package dev.weft.model.ingest;

import java.util.List;
import java.util.Locale;

/**
 * The activity categories of a Cosmos tx, from its message type URLs (without the leading slash), as Celatone's full
 * tier groups an account's txs. A tx is in every category one of its messages is in (so a tx may count in several).
 * The codes are stored ({@code tx_account_category}, {@code account_category_stats}): never renumber one.
 */
public enum TxCategory {
    /** {@code cosmos.bank.v1beta1.MsgSend} and {@code MsgMultiSend}. */
    SEND(1, "send"),
    /** every IBC message: {@code ibc.*} (transfers, packets, clients, channels, NFT transfers). */
    IBC(2, "ibc"),
    /** every OPinit bridge message: {@code opinit.*} (deposits, withdrawals, executor and challenger messages). */
    OPINIT(3, "opinit"),
    /** {@code minievm.evm.v1.MsgCall}. */
    EVM_CALL(4, "evm_call"),
    /** {@code initia.move.v1.MsgExecute} and {@code MsgExecuteJSON}. */
    MOVE_EXECUTE(5, "move_execute"),
    /** {@code cosmwasm.wasm.v1.MsgExecuteContract}. */
    WASM_EXECUTE(6, "wasm_execute");

    public static final List<TxCategory> ALL = List.of(values());

    public final short code;
    public final String label;

    TxCategory(int code, String label) {
        this.code = (short) code;
        this.label = label;
    }

    /** The category of one message type, or null when it is in none. */
    public static TxCategory of(String msgType) {
        if (msgType.startsWith("ibc.")) return IBC;
        if (msgType.startsWith("opinit.")) return OPINIT;
        return switch (msgType) {
            case "cosmos.bank.v1beta1.MsgSend", "cosmos.bank.v1beta1.MsgMultiSend" -> SEND;
            case "minievm.evm.v1.MsgCall" -> EVM_CALL;
            case "initia.move.v1.MsgExecute", "initia.move.v1.MsgExecuteJSON" -> MOVE_EXECUTE;
            case "cosmwasm.wasm.v1.MsgExecuteContract" -> WASM_EXECUTE;
            default -> null;
        };
    }

    /** A category by its label (any case), or null. */
    public static TxCategory named(String label) {
        String l = label.trim().toLowerCase(Locale.ROOT);
        for (TxCategory c : ALL) if (c.label.equals(l)) return c;
        return null;
    }
}
