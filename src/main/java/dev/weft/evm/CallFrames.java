package dev.weft.evm;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.Locale;
import java.util.List;

/**
 * Flattens a callTracer result into internal-tx rows in pre-order DFS: the top frame is index 0 with parent -1,
 * children follow their parent with contiguous indexes ({@code A(B(C), D)} → A0(-1) B1(0) C2(1) D3(0)), exactly as
 * rollytics does (indexer-anchors §1.7, §2.9).
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
  public static List<InternalTx> flatten(JsonObject top, String receiptGasUsed) {
    List<InternalTx> out = new ArrayList<>();
    walk(top, -1, out);
    InternalTx t = out.get(0);
    out.set(0, new InternalTx(t.index(), t.parentIndex(), t.type(), t.from(), t.to(), t.input(), "0x", t.value(), t.gas(),
        receiptGasUsed != null ? hexBytes(receiptGasUsed) : t.gasUsed(), t.error(), t.revertReason()));
    return out;
  }

  private static void walk(JsonObject frame, int parent, List<InternalTx> out) {
    int index = out.size();
    String type = frame.getString("type", "CALL").toUpperCase(Locale.ROOT);
    String value = type.equals("DELEGATECALL") ? "0x" : hexBytes(frame.getString("value"));
    out.add(new InternalTx(index, parent, type, address(frame.getString("from")), address(frame.getString("to")),
        hexBytes(frame.getString("input")), hexBytes(frame.getString("output")), value,
        hexBytes(frame.getString("gas")), hexBytes(frame.getString("gasUsed")),
        frame.getString("error"), frame.getString("revertReason")));
    JsonArray calls = frame.getJsonArray("calls");
    if (calls == null) return;
    for (int i = 0; i < calls.size(); i++) walk(calls.getJsonObject(i), index, out);
  }

  /** Even-length lower-case hex with 0x; absent or empty is {@code 0x}. */
  public static String hexBytes(String hex) {
    if (hex == null) return "0x";
    String h = hex.startsWith("0x") || hex.startsWith("0X") ? hex.substring(2) : hex;
    if (h.isEmpty()) return "0x";
    h = h.toLowerCase(Locale.ROOT);
    return (h.length() % 2 == 1 ? "0x0" : "0x") + h;
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
