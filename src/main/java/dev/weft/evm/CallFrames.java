package dev.weft.evm;

import com.fasterxml.jackson.databind.JsonNode;
import dev.weft.model.evm.InternalTx;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Flattens a callTracer result into internal-tx rows in pre-order DFS: the top frame is index 0 with parent -1,
 * children follow their parent with contiguous indexes ({@code A(B(C), D)} → A0(-1) B1(0) C2(1) D3(0)), exactly as
 * rollytics does (initia-labs/rollytics, the internal-tx indexer and api/handler/tx/internaltx.go).
 *
 * <p>Re-encoding: byte fields become even-length lower-case hex ({@code 0x0} → {@code 0x00}, {@code 0x100} →
 * {@code 0x0100}, absent or empty → {@code 0x}); addresses are {@code 0x} + 40 lower-case hex, {@code ""} when
 * absent; the top frame's output is always {@code 0x}. Two deliberate corrections of what nodes report: the top
 * frame's gasUsed is the receipt's (Anvil reports it cumulatively across a block), and a DELEGATECALL's value is
 * {@code 0x} because it repeats the caller's msg.value and moves nothing.
 */
public final class CallFrames {
    private CallFrames() {}

    /**
     * @param top the callTracer frame of a tx ({@code result} of an entry of {@code debug_traceBlockByNumber})
     * @param receiptGasUsed the tx receipt's {@code gasUsed} (hex), or null to keep the trace's value
     */
    public static List<InternalTx> flatten(JsonNode top, String receiptGasUsed) {
        List<InternalTx> out = new ArrayList<>();
        walk(top, -1, out);
        InternalTx t = out.get(0);
        out.set(
                0,
                new InternalTx(
                        t.index(),
                        t.parentIndex(),
                        t.type(),
                        t.from(),
                        t.to(),
                        t.input(),
                        "0x",
                        t.value(),
                        t.gas(),
                        receiptGasUsed != null ? hexBytes(receiptGasUsed) : t.gasUsed(),
                        t.error(),
                        t.revertReason()));
        return out;
    }

    private static void walk(JsonNode frame, int parent, List<InternalTx> out) {
        if (!frame.isObject()) throw new IllegalArgumentException("a call frame is not an object: " + frame);
        int index = out.size();
        String type = text(frame, "type");
        type = type == null ? "CALL" : clean(type.toUpperCase(Locale.ROOT));
        String value = type.equals("DELEGATECALL") ? "0x" : hexBytes(text(frame, "value"));
        out.add(new InternalTx(
                index,
                parent,
                type,
                address(text(frame, "from")),
                address(text(frame, "to")),
                hexBytes(text(frame, "input")),
                hexBytes(text(frame, "output")),
                value,
                hexBytes(text(frame, "gas")),
                hexBytes(text(frame, "gasUsed")),
                clean(text(frame, "error")),
                clean(text(frame, "revertReason"))));
        JsonNode calls = frame.get("calls");
        if (calls == null || calls.isNull()) return;
        if (!calls.isArray()) throw new IllegalArgumentException("calls is not an array");
        for (JsonNode c : calls) walk(c, index, out);
    }

    /** A string field; absent, null and empty read as null. */
    private static String text(JsonNode n, String field) {
        JsonNode v = n.get(field);
        if (v == null || v.isNull()) return null;
        String s = v.asText();
        return s.isEmpty() ? null : s;
    }

    /** PostgreSQL rejects NUL in text and JSON (rollytics#114), and a revert reason is whatever bytes a contract chose. */
    private static String clean(String s) {
        return s == null || s.indexOf('\u0000') < 0 ? s : s.replace('\u0000', '\uFFFD');
    }

    /** Even-length lower-case hex with 0x; absent or empty is {@code 0x}; anything but hex digits is refused. */
    public static String hexBytes(String hex) {
        if (hex == null) return "0x";
        String h = hex.startsWith("0x") || hex.startsWith("0X") ? hex.substring(2) : hex;
        if (h.isEmpty()) return "0x";
        for (int i = 0; i < h.length(); i++) {
            if (Character.digit(h.charAt(i), 16) < 0) throw new IllegalArgumentException("not hex: " + abbreviate(hex));
        }
        h = h.toLowerCase(Locale.ROOT);
        return (h.length() % 2 == 1 ? "0x0" : "0x") + h;
    }

    private static String abbreviate(String s) {
        return s.length() > 80 ? s.substring(0, 80) + "…" : s;
    }

    /** {@code 0x} + 40 lower-case hex, or {@code ""} when absent. */
    public static String address(String a) {
        if (a == null || a.isEmpty()) return "";
        String h = a.startsWith("0x") || a.startsWith("0X") ? a.substring(2) : a;
        h = h.toLowerCase(Locale.ROOT);
        if (h.length() < 40) h = "0".repeat(40 - h.length()) + h;
        return "0x" + h;
    }
}
