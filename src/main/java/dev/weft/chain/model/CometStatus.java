package dev.weft.chain.model;

import com.fasterxml.jackson.databind.JsonNode;

/** CometBFT {@code /status}: the node's network and its latest and earliest heights. */
public record CometStatus(String network, long latestHeight, long earliestHeight, boolean catchingUp) {
    public static CometStatus parse(JsonNode result) {
        JsonNode sync = result.path("sync_info");
        return new CometStatus(
                NodeJson.text(result.path("node_info"), "network", ""),
                NodeJson.requiredLong(sync, "latest_block_height"),
                NodeJson.longValue(sync, "earliest_block_height", 1),
                sync.path("catching_up").asBoolean(false));
    }
}
