package dev.weft.track.poll;

import com.fasterxml.jackson.databind.JsonNode;
import dev.weft.track.ObservedTx;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Reading CometBFT 0.38 RPC JSON: a {@code tx_search} result tx, and RFC 3339 block times. */
final class TxJson {
  private TxJson() {}

  /** A ResultTx ({@code hash, height, index, tx_result{code, log, events}}) seen on a chain at a block time. */
  static ObservedTx observed(String chainId, JsonNode tx, long timeNanos) {
    JsonNode result = tx.path("tx_result");
    List<ObservedTx.Event> events = new ArrayList<>();
    for (JsonNode e : result.path("events")) {
      Map<String, String> attrs = new LinkedHashMap<>();
      String msgIndex = null;
      for (JsonNode a : e.path("attributes")) {
        String key = a.path("key").asText();
        String value = a.path("value").isNull() ? "" : a.path("value").asText();
        if (key.equals("msg_index")) msgIndex = value;
        attrs.put(key, value);
      }
      events.add(new ObservedTx.Event(e.path("type").asText(), attrs, msgIndex));
    }
    return new ObservedTx(chainId, tx.path("hash").asText().toUpperCase(java.util.Locale.ROOT), tx.path("height").asLong(),
        timeNanos, result.path("code").asInt(), result.path("log").asText(""), List.copyOf(events));
  }

  /** Nanoseconds since the epoch of an RFC 3339 time (CometBFT writes up to nine fraction digits). */
  static long timeNanos(String rfc3339) {
    if (rfc3339 == null || rfc3339.isEmpty()) return 0;
    Instant i = Instant.parse(rfc3339);
    return i.getEpochSecond() * 1_000_000_000L + i.getNano();
  }
}
