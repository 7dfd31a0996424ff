package dev.weft.chain.model;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.ArrayList;
import java.util.List;

/** CometBFT 0.38 {@code /block_results}: one result per tx (events kept as the node's JSON) and the block events. */
public record BlockResults(long height, List<TxResult> txs, JsonNode finalizeBlockEvents) {

  /**
   * One {@code ExecTxResult}. {@code data} is base64 as on the wire; gas values are kept as the node's decimal text.
   */
  public record TxResult(int code, String codespace, String data, String log, String info, String gasWanted,
                         String gasUsed, JsonNode events) {
    public long gasWantedLong() {
      return parse(gasWanted);
    }

    public long gasUsedLong() {
      return parse(gasUsed);
    }

    private static long parse(String s) {
      return s == null || s.isEmpty() ? 0 : Long.parseLong(s);
    }
  }

  public static BlockResults parse(JsonNode result) {
    long height = NodeJson.requiredLong(result, "height");
    List<TxResult> txs = new ArrayList<>();
    for (JsonNode r : NodeJson.array(result, "txs_results")) {
      JsonNode code = r.get("code");
      txs.add(new TxResult(code == null || code.isNull() ? 0 : code.asInt(),
          NodeJson.text(r, "codespace", ""), NodeJson.text(r, "data", ""), NodeJson.text(r, "log", ""),
          NodeJson.text(r, "info", ""), NodeJson.text(r, "gas_wanted", "0"), NodeJson.text(r, "gas_used", "0"),
          r.get("events")));
    }
    return new BlockResults(height, txs, result.get("finalize_block_events"));
  }
}
