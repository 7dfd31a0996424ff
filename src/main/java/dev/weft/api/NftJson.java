package dev.weft.api;

import dev.weft.chain.Bech32;
import dev.weft.chain.Hex;
import dev.weft.chain.model.Rfc3339;
import dev.weft.store.NftStore;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

/**
 * NFT collections and tokens in rollytics' shapes (api/handler/nft/types.go in initia-labs/rollytics): addresses of collections and objects as
 * {@code 0x} + lower-case hex, creators and owners as bech32 of the chain's prefix ({@code ""} when unknown), heights
 * and {@code nfts.length} as numbers, timestamps RFC 3339 in UTC with microseconds (trailing zeros dropped), as
 * rollytics renders a {@code timestamptz} read back through a UTC session.
 */
final class NftJson {
    private NftJson() {}

    static JsonObject collection(NftStore.Collection c, String prefix) {
        return new JsonObject()
                .put("object_addr", Hex.prefixed(c.addr()))
                .put(
                        "collection",
                        new JsonObject()
                                .put("creator", bech32(c.creator(), prefix))
                                .put("name", c.name())
                                .put("origin_name", c.originName())
                                .put("nfts", new JsonObject().put("handle", "").put("length", c.count())))
                .put("height", c.height())
                .put("timestamp", timestamp(c.timeNs()));
    }

    static JsonObject token(NftStore.Token t, String prefix) {
        return new JsonObject()
                .put("collection_addr", Hex.prefixed(t.collection()))
                .put("collection_name", t.collectionName())
                .put("collection_origin_name", t.collectionOriginName())
                .put("object_addr", t.object() == null ? "" : Hex.prefixed(t.object()))
                .put("owner", bech32(t.owner(), prefix))
                .put("nft", new JsonObject().put("token_id", t.tokenId()).put("uri", t.uri()))
                .put("height", t.height())
                .put("timestamp", timestamp(t.timeNs()));
    }

    static JsonObject list(String key, JsonArray items, JsonObject pagination) {
        return new JsonObject().put(key, items).put("pagination", pagination);
    }

    /** RFC 3339 UTC, microsecond precision (PostgreSQL's), trailing zeros of the fraction dropped. */
    static String timestamp(long timeNs) {
        return Rfc3339.nanos(Math.floorDiv(timeNs, 1000L) * 1000L);
    }

    private static String bech32(byte[] address, String prefix) {
        return address == null || address.length == 0 ? "" : Bech32.encode(prefix, address);
    }
}
