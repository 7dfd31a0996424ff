package dev.weft.devnet.tx;

import dev.weft.chain.CosmosTx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The LEGACY_AMINO_JSON sign bytes of a tx, as the SDK's x/tx aminojson sign mode handler and cosmjs'
 * {@code serializeSignDoc} write them: the StdSignDoc {@code {account_number, chain_id, fee {amount, gas, granter?,
 * payer?}, memo, msgs, sequence, timeout_height?}} with every object's keys sorted, no whitespace, integers as decimal
 * strings, and each message in its amino form {@code {type: <amino name>, value}}, where a field at its default value is
 * left out unless its proto says {@code (amino.dont_omitempty)}. Ledger signs these bytes.
 */
public final class AminoJson {
    private AminoJson() {}

    /** The sign bytes (UTF-8) of a decoded tx for one signer; throws {@link IllegalArgumentException} for a message without an amino name. */
    public static byte[] signBytes(DecodedTx d, String chainId, long accountNumber, long sequence) {
        CosmosTx tx = d.tx();
        Map<String, Object> doc = new TreeMap<>();
        doc.put("account_number", Long.toUnsignedString(accountNumber));
        doc.put("chain_id", chainId);
        Map<String, Object> fee = new TreeMap<>();
        List<Object> coins = new ArrayList<>();
        for (CosmosTx.Coin c : tx.fee().amount())
            coins.add(new TreeMap<>(Map.of("denom", c.denom(), "amount", c.amount())));
        fee.put("amount", coins);
        fee.put("gas", Long.toUnsignedString(tx.fee().gasLimit()));
        if (tx.fee().payer() != null && !tx.fee().payer().isEmpty())
            fee.put("payer", tx.fee().payer());
        if (tx.fee().granter() != null && !tx.fee().granter().isEmpty())
            fee.put("granter", tx.fee().granter());
        doc.put("fee", fee);
        doc.put("memo", tx.memo() == null ? "" : tx.memo());
        List<Object> msgs = new ArrayList<>();
        for (DecodedTx.Msg m : d.msgs()) {
            if (m.type().aminoName() == null)
                throw new IllegalArgumentException(m.type().url() + " has no amino JSON form");
            Map<String, Object> value =
                    message(m.type().schema(), m.type().schema().decode(m.proto()));
            msgs.add(new TreeMap<>(Map.of("type", m.type().aminoName(), "value", value)));
        }
        doc.put("msgs", msgs);
        doc.put("sequence", Long.toUnsignedString(sequence));
        if (tx.timeoutHeight() != 0) doc.put("timeout_height", Long.toUnsignedString(tx.timeoutHeight()));
        StringBuilder out = new StringBuilder();
        write(out, doc);
        return out.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8);
    }

    /** A message's amino value from its proto JSON (every field present, as {@link ProtoSchema#decode} gives it). */
    private static Map<String, Object> message(ProtoSchema schema, JsonObject proto) {
        Map<String, Object> out = new TreeMap<>();
        for (ProtoSchema.Field f : schema.fields()) {
            Object v = proto.getValue(f.name());
            if (f.repeated()) {
                JsonArray a = (JsonArray) v;
                if (a.isEmpty() && !f.aminoKeepsEmpty()) continue;
                List<Object> list = new ArrayList<>();
                for (Object e : a)
                    list.add(f.type() == ProtoSchema.Type.MESSAGE ? message(f.message(), (JsonObject) e) : e);
                out.put(f.name(), list);
                continue;
            }
            Object amino = f.type() == ProtoSchema.Type.MESSAGE ? message(f.message(), (JsonObject) v) : v;
            if (!f.aminoKeepsEmpty() && isDefault(f, amino)) continue;
            out.put(f.name(), amino);
        }
        return out;
    }

    private static boolean isDefault(ProtoSchema.Field f, Object v) {
        return switch (f.type()) {
            case STRING, BYTES -> "".equals(v);
            case UINT64 -> "0".equals(v);
            case BOOL -> Boolean.FALSE.equals(v);
            case MESSAGE -> ((Map<?, ?>) v).isEmpty();
        };
    }

    private static void write(StringBuilder out, Object v) {
        if (v instanceof Map<?, ?> m) {
            out.append('{');
            boolean first = true;
            for (Map.Entry<?, ?> e : m.entrySet()) {
                if (!first) out.append(',');
                first = false;
                string(out, (String) e.getKey());
                out.append(':');
                write(out, e.getValue());
            }
            out.append('}');
        } else if (v instanceof List<?> l) {
            out.append('[');
            for (int i = 0; i < l.size(); i++) {
                if (i > 0) out.append(',');
                write(out, l.get(i));
            }
            out.append(']');
        } else if (v instanceof Boolean b) {
            out.append(b);
        } else {
            string(out, (String) v);
        }
    }

    /** A JSON string as Go's encoding/json and cosmjs write it: {@code <>&} and U+2028/2029 escaped as {@code \\u00XX}. */
    private static void string(StringBuilder out, String s) {
        out.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                case '<', '>', '&', '\u2028', '\u2029' -> out.append(String.format("\\u%04x", (int) c));
                default -> {
                    if (c < 0x20) out.append(String.format("\\u%04x", (int) c));
                    else out.append(c);
                }
            }
        }
        out.append('"');
    }
}
