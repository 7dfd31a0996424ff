package dev.weft.model.track;

import java.util.List;
import java.util.Map;

/**
 * A tx the tracker saw on a chain: hash, height, block time (ns), ABCI code and log, and its events (attributes in
 * order; {@code msgIndex} is the SDK's {@code msg_index}, null for the ante handler's events).
 */
public record ObservedTx(
        String chainId, String hash, long height, long timeNanos, int code, String log, List<Event> events) {

    public record Event(String type, Map<String, String> attrs, String msgIndex) {
        public String get(String key) {
            return attrs.get(key);
        }
    }
}
