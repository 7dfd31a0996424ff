package dev.weft.api;

import dev.weft.bus.BusError;
import dev.weft.chain.Bech32;
import dev.weft.chain.Hex;
import dev.weft.config.ChainConfig;
import dev.weft.runtime.NodeContext;
import dev.weft.store.NftActivityStore;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;

/**
 * Weft's NFT activity views, what explorers otherwise rebuild by scanning a token's or collection's txs (Celatone's
 * sequencer tier, alleslabs/celatone-frontend {@code src/lib/services/nft*}): a token's mint (tx, minter, owner), a
 * collection's creation (creator, tx) and a collection's changes (mint, transfer, burn, URI change), newest first in
 * keyset pages. Read from the rows the ingest commit writes ({@code nft_activity}, V021), on every VM the NFT parsers
 * support; addresses as in {@link NftApi}.
 */
public final class NftActivityApi implements ApiModule {
    private final NftActivityStore store;
    private final String prefix;
    private final ChainConfig.Vm vm;

    public NftActivityApi(NodeContext ctx) {
        this.store = new NftActivityStore(ctx.pool());
        this.prefix = ctx.config().chain().bech32Prefix();
        this.vm = ctx.config().chain().vm();
    }

    @Override
    public void mount(Router router) {
        // three segments after tokens/ and two after collections/: no clash with NftApi's by_account, by_collection
        // and by_name routes, which are mounted first
        router.get("/indexer/nft/v1/tokens/:collection_addr/:token_id/mint").handler(this::mint);
        router.get("/indexer/nft/v1/collections/:collection_addr/creator").handler(this::creator);
        router.get("/indexer/nft/v1/collections/:collection_addr/activities").handler(this::activities);
    }

    @Override
    public String openApiFragment() {
        return "openapi/nft-activity.json";
    }

    private byte[] collection(RoutingContext rc) {
        return NftApi.collectionAddr(rc.pathParam("collection_addr"), prefix, vm);
    }

    private void mint(RoutingContext rc) {
        byte[] collection = collection(rc);
        String tokenId = rc.pathParam("token_id");
        store.mint(collection, tokenId)
                .onSuccess(m -> {
                    if (!m.known()) rc.fail(BusError.notFound("nft not found"));
                    else if (m.mint() == null)
                        rc.fail(BusError.notFound("nft mint not indexed (minted before the indexed history)"));
                    else
                        Responses.json(
                                rc,
                                new JsonObject()
                                        .put(
                                                "mint",
                                                new JsonObject()
                                                        .put("collection_addr", Hex.prefixed(collection))
                                                        .put("token_id", tokenId)
                                                        .put(
                                                                "object_addr",
                                                                hex(m.mint().object()))
                                                        .put("height", m.mint().height())
                                                        .put(
                                                                "timestamp",
                                                                NftJson.timestamp(
                                                                        m.mint().timeNs()))
                                                        .put(
                                                                "txhash",
                                                                upper(m.mint().txHash()))
                                                        .put(
                                                                "minter",
                                                                bech32(m.mint().minter()))
                                                        .put(
                                                                "owner",
                                                                bech32(m.mint().owner()))));
                })
                .onFailure(rc::fail);
    }

    private void creator(RoutingContext rc) {
        byte[] collection = collection(rc);
        store.creation(collection)
                .onSuccess(c -> {
                    if (c == null) rc.fail(BusError.notFound("nft collection not found"));
                    else
                        Responses.json(
                                rc,
                                new JsonObject()
                                        .put(
                                                "creator",
                                                new JsonObject()
                                                        .put("collection_addr", Hex.prefixed(collection))
                                                        .put("creator", bech32(c.creator()))
                                                        .put("height", c.height())
                                                        .put("timestamp", NftJson.timestamp(c.timeNs()))
                                                        .put("txhash", upper(c.txHash()))));
                })
                .onFailure(rc::fail);
    }

    private void activities(RoutingContext rc) {
        byte[] collection = collection(rc);
        String v = rc.queryParams().get("token_id");
        String tokenId = v == null || v.isEmpty() ? null : v;
        PageRequest page = PageRequest.parse(rc);
        if (page.offset() != 0)
            throw BusError.badRequest("pagination.offset is not supported on activities: follow next_key");
        Long boundSeq = page.hasCursor() ? page.cursorLong("sequence") : null;
        Integer boundPos =
                page.hasCursor() ? (int) Math.min(Integer.MAX_VALUE, page.cursorLong("activity_index")) : null;
        Future<Boolean> exists = store.collectionExists(collection);
        Future<NftActivityStore.ActivityPage> rows =
                store.activities(collection, tokenId, page.reverse(), boundSeq, boundPos, page.limit());
        Future.all(exists, rows)
                .onSuccess(x -> {
                    if (!exists.result()) {
                        rc.fail(BusError.notFound("nft collection not found"));
                        return;
                    }
                    NftActivityStore.ActivityPage p = rows.result();
                    JsonArray items = new JsonArray();
                    for (NftActivityStore.Activity a : p.rows())
                        items.add(new JsonObject()
                                .put("height", a.height())
                                .put("timestamp", NftJson.timestamp(a.timeNs()))
                                .put("txhash", upper(a.txHash()))
                                .put("token_id", a.tokenId())
                                .put("object_addr", hex(a.object()))
                                .put("kind", kind(a.kind()))
                                .put("from", bech32(a.from()))
                                .put("to", bech32(a.to())));
                    JsonObject next = null;
                    if (p.more() && !p.rows().isEmpty()) {
                        NftActivityStore.Activity last = p.rows().get(p.rows().size() - 1);
                        next = new JsonObject().put("sequence", last.sequence()).put("activity_index", last.position());
                    }
                    Responses.json(
                            rc,
                            new JsonObject()
                                    .put("activities", items)
                                    .put("pagination", PageResponse.cursor(next, 0, page)));
                })
                .onFailure(rc::fail);
    }

    static String kind(short code) {
        return switch (code) {
            case NftActivityStore.MINT -> "mint";
            case NftActivityStore.TRANSFER -> "transfer";
            case NftActivityStore.BURN -> "burn";
            case NftActivityStore.URI -> "mutate";
            default -> "unknown";
        };
    }

    private String bech32(byte[] address) {
        return address == null || address.length == 0 ? "" : Bech32.encode(prefix, address);
    }

    private static String hex(byte[] b) {
        return b == null ? "" : Hex.prefixed(b);
    }

    private static String upper(byte[] b) {
        return b == null ? "" : Hex.upper(b);
    }
}
