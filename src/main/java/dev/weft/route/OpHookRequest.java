package dev.weft.route;

import dev.weft.bus.BusError;
import io.vertx.core.json.JsonObject;

/** A {@code POST /op-hook} body: the source and destination addresses and assets (all required). */
public record OpHookRequest(
        String sourceAddress,
        String sourceChainId,
        String sourceDenom,
        String destAddress,
        String destChainId,
        String destDenom) {

    public static OpHookRequest parse(JsonObject body) {
        if (body == null) throw BusError.badRequest("request body must be a JSON object");
        return new OpHookRequest(
                RouteRequest.string(body, "source_address"),
                RouteRequest.string(body, "source_asset_chain_id"),
                RouteRequest.string(body, "source_asset_denom"),
                RouteRequest.string(body, "dest_address"),
                RouteRequest.string(body, "dest_asset_chain_id"),
                RouteRequest.string(body, "dest_asset_denom"));
    }
}
