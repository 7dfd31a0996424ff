package dev.weft.model.track;

import io.vertx.core.json.JsonObject;

/** A tx seen on a chain: its hash (as the chain names it), height and block time (nanoseconds since the epoch). */
public record ChainTx(String chainId, String hash, long height, long timeNanos) {

    public JsonObject toJson() {
        return new JsonObject()
                .put("chain_id", chainId)
                .put("tx_hash", hash)
                .put("height", height)
                .put("time_nanos", timeNanos);
    }

    public static ChainTx fromJson(JsonObject o) {
        return o == null
                ? null
                : new ChainTx(
                        o.getString("chain_id"), o.getString("tx_hash"), o.getLong("height"), o.getLong("time_nanos"));
    }
}
