package dev.weft.devnet.world;

import dev.weft.chain.Hex;
import dev.weft.devnet.exec.MoveCoinEvents;
import dev.weft.devnet.http.DevnetServer;
import dev.weft.devnet.http.Reply;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.function.Function;

/**
 * The {@code 0x1::object::ObjectCore} resource of the primary fungible stores of a Move chain, as the x/move gateway
 * answers {@code GET /initia/move/v1/accounts/{address}/resources/by_struct_tag?struct_tag=0x1::object::ObjectCore}:
 * {@code {"resource":{"address","struct_tag","move_resource","raw_bytes"}}}, {@code move_resource} the resource as JSON
 * text (a primary store belongs to its account and is not transferable). Any other address: 404 code 5. Other struct
 * tags are left to the chain's other routes (null).
 */
final class MoveObjectRoutes implements Function<DevnetServer.Request, Reply> {
    private static final String PREFIX = "/initia/move/v1/accounts/";
    private static final String SUFFIX = "/resources/by_struct_tag";
    private static final String OBJECT_CORE = "0x1::object::ObjectCore";

    private final MoveCoinEvents stores;

    MoveObjectRoutes(MoveCoinEvents stores) {
        this.stores = stores;
    }

    @Override
    public Reply apply(DevnetServer.Request r) {
        String p = r.path();
        if (r.method() != HttpMethod.GET
                || !p.startsWith(PREFIX)
                || !p.endsWith(SUFFIX)
                || !OBJECT_CORE.equals(r.param("struct_tag"))) return null;
        String address = p.substring(PREFIX.length(), p.length() - SUFFIX.length());
        byte[] owner = null;
        String h = Hex.strip(address);
        if (!h.isEmpty() && h.length() <= 64 && h.chars().allMatch(c -> Character.digit(c, 16) >= 0)) {
            owner = stores.ownerOf(Hex.decode("0".repeat(64 - h.length()) + h));
        }
        if (owner == null) {
            return Reply.json(
                    404,
                    Buffer.buffer(new JsonObject()
                            .put("code", 5)
                            .put("message", "resource " + OBJECT_CORE + " not found at " + address + ": not found")
                            .put("details", new JsonArray())
                            .encode()));
        }
        JsonObject data = new JsonObject()
                .put("owner", MoveCoinEvents.literal(owner))
                .put("allow_ungated_transfer", false)
                .put("version", "1");
        String resource =
                new JsonObject().put("type", OBJECT_CORE).put("data", data).encode();
        return Reply.json(Buffer.buffer(new JsonObject()
                .put(
                        "resource",
                        new JsonObject()
                                .put("address", address)
                                .put("struct_tag", OBJECT_CORE)
                                .put("move_resource", resource)
                                .put("raw_bytes", ""))
                .encode()));
    }
}
