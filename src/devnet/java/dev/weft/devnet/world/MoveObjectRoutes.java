package dev.weft.devnet.world;

import dev.weft.chain.Hex;
import dev.weft.devnet.exec.MoveCoinEvents;
import dev.weft.devnet.exec.MoveObjects;
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
 * text (a primary store belongs to its account and is not transferable). The collections and NFTs of
 * {@code 0x1::simple_nft} also answer their {@code ObjectCore} (transferable), {@code 0x1::collection::Collection}
 * {@code {creator, description, name, uri, nfts}} and {@code 0x1::nft::Nft} {@code {collection, description, token_id,
 * uri}}. Any other address: 404 code 5. Other struct tags are left to the chain's other routes (null).
 */
final class MoveObjectRoutes implements Function<DevnetServer.Request, Reply> {
    private static final String PREFIX = "/initia/move/v1/accounts/";
    private static final String SUFFIX = "/resources/by_struct_tag";
    private static final String OBJECT_CORE = "0x1::object::ObjectCore";
    private static final String COLLECTION = "0x1::collection::Collection";
    private static final String NFT = "0x1::nft::Nft";

    private final MoveCoinEvents stores;
    private final MoveObjects objects;

    MoveObjectRoutes(MoveCoinEvents stores, MoveObjects objects) {
        this.stores = stores;
        this.objects = objects;
    }

    @Override
    public Reply apply(DevnetServer.Request r) {
        String p = r.path();
        if (r.method() != HttpMethod.GET || !p.startsWith(PREFIX) || !p.endsWith(SUFFIX)) return null;
        String tag = r.param("struct_tag");
        if (!OBJECT_CORE.equals(tag) && !COLLECTION.equals(tag) && !NFT.equals(tag)) return null;
        String address = p.substring(PREFIX.length(), p.length() - SUFFIX.length());
        byte[] owner = null;
        MoveObjects.Obj object = null;
        String h = Hex.strip(address);
        if (!h.isEmpty() && h.length() <= 64 && h.chars().allMatch(c -> Character.digit(c, 16) >= 0)) {
            byte[] a = Hex.decode("0".repeat(64 - h.length()) + h);
            owner = stores.ownerOf(a);
            object = objects == null ? null : objects.get(a);
        }
        JsonObject data = data(tag, owner, object);
        if (data == null) {
            return Reply.json(
                    404,
                    Buffer.buffer(new JsonObject()
                            .put("code", 5)
                            .put("message", "resource " + tag + " not found at " + address + ": not found")
                            .put("details", new JsonArray())
                            .encode()));
        }
        String resource = new JsonObject().put("type", tag).put("data", data).encode();
        return Reply.json(Buffer.buffer(new JsonObject()
                .put(
                        "resource",
                        new JsonObject()
                                .put("address", address)
                                .put("struct_tag", tag)
                                .put("move_resource", resource)
                                .put("raw_bytes", ""))
                .encode()));
    }

    /** The resource's data, or null when the address has none of that type. */
    private static JsonObject data(String tag, byte[] storeOwner, MoveObjects.Obj o) {
        if (OBJECT_CORE.equals(tag)) {
            if (storeOwner != null)
                return new JsonObject()
                        .put("owner", MoveCoinEvents.literal(storeOwner))
                        .put("allow_ungated_transfer", false)
                        .put("version", "1");
            if (o == null) return null;
            return new JsonObject()
                    .put("owner", MoveCoinEvents.literal(o.owner()))
                    .put("allow_ungated_transfer", true)
                    .put("version", Long.toString(o.version()));
        }
        if (o == null) return null;
        if (COLLECTION.equals(tag) && o.kind == MoveObjects.Kind.COLLECTION)
            return new JsonObject()
                    .put("creator", MoveCoinEvents.literal(o.creator))
                    .put("description", o.description)
                    .put("name", o.name)
                    .put("uri", o.uri)
                    .put("nfts", null);
        if (NFT.equals(tag) && o.kind == MoveObjects.Kind.NFT)
            return new JsonObject()
                    .put("collection", new JsonObject().put("inner", MoveCoinEvents.literal(o.collection)))
                    .put("description", o.description)
                    .put("token_id", o.name)
                    .put("uri", o.uri);
        return null;
    }
}
