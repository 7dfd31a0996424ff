package dev.weft.devnet.tx;

import dev.weft.chain.CosmosTx;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;

/**
 * A tx received by a devnet chain, decoded and checked as CheckTx does (no signature check: the devnet accepts signed
 * and unsigned txs alike): a TxRaw that parses, at least one message, every message a type the chain registers whose
 * bytes parse, and every signer field an account of the chain.
 */
public record DecodedTx(byte[] raw, String hash, CosmosTx tx, List<Msg> msgs) {

    /** A decoded message: its type, proto JSON and bytes. */
    public record Msg(MsgTypes.Type type, JsonObject value, byte[] proto) {
        public String signer() {
            return value.getString(type.signerField());
        }
    }

    /** A tx CheckTx refuses: ABCI code, codespace and log. */
    public static final class Rejected extends RuntimeException {
        public final int code;
        public final String codespace;

        Rejected(int code, String codespace, String log) {
            super(log, null, false, false);
            this.code = code;
            this.codespace = codespace;
        }
    }

    /**
     * @param types       the message types the chain registers
     * @param validSigner whether a signer field is an account of the chain
     */
    public static DecodedTx decode(byte[] raw, Set<String> types, Predicate<String> validSigner) {
        CosmosTx tx;
        try {
            tx = CosmosTx.decode(raw);
        } catch (RuntimeException e) {
            throw new Rejected(2, "sdk", "tx parse error");
        }
        if (tx.messages().isEmpty())
            throw new Rejected(18, "sdk", "must contain at least one message: invalid request");
        List<Msg> msgs = new ArrayList<>();
        for (CosmosTx.Any any : tx.messages()) {
            MsgTypes.Type type = MsgTypes.of(any.typeUrl());
            if (type == null || !types.contains(any.typeUrl())) {
                throw new Rejected(2, "sdk", "unable to resolve type URL " + any.typeUrl() + ": tx parse error");
            }
            JsonObject value;
            try {
                value = type.schema().decode(any.value());
            } catch (RuntimeException e) {
                throw new Rejected(2, "sdk", "tx parse error");
            }
            Msg m = new Msg(type, value, any.value());
            if (!validSigner.test(m.signer())) {
                throw new Rejected(
                        7, "sdk", "invalid " + type.signerField() + " address (" + m.signer() + "): invalid address");
            }
            msgs.add(m);
        }
        return new DecodedTx(raw, CosmosTx.hash(raw), tx, List.copyOf(msgs));
    }
}
