package dev.weft.api;

import dev.weft.bus.BusError;
import dev.weft.chain.AccountAddress;
import dev.weft.config.ChainConfig;
import dev.weft.model.nft.NftAddresses;
import dev.weft.model.nft.NftFold;
import dev.weft.runtime.NodeContext;
import dev.weft.store.NftStore;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;

/**
 * {@code /indexer/nft/v1/*}: collections (all, by owner, by name, one), tokens (by owner, by collection) and the txs
 * of a token, in rollytics' shapes (api/handler/nft in initia-labs/rollytics). Lists of collections and tokens are offset pages with
 * exact totals; the tx history pages by sequence like the tx lists. Addresses are accepted as hex (any case, optional
 * {@code 0x}) or bech32 of the chain's prefix.
 */
public final class NftApi implements ApiModule {
    private final NftStore nfts;
    private final String prefix;
    private final ChainConfig.Vm vm;

    public NftApi(NodeContext ctx) {
        this.nfts = new NftStore(ctx.pool());
        this.prefix = ctx.config().chain().bech32Prefix();
        this.vm = ctx.config().chain().vm();
    }

    @Override
    public void mount(Router router) {
        router.get("/indexer/nft/v1/collections").handler(rc -> collections(rc, NftStore.CollectionFilter.ALL, null));
        router.get("/indexer/nft/v1/collections/by_account/:account").handler(this::collectionsByAccount);
        router.get("/indexer/nft/v1/collections/by_name/:name").handler(this::collectionsByName);
        router.get("/indexer/nft/v1/collections/:collection_addr").handler(this::collection);
        router.get("/indexer/nft/v1/tokens/by_account/:account").handler(this::tokensByAccount);
        router.get("/indexer/nft/v1/tokens/by_collection/:collection_addr").handler(this::tokensByCollection);
        router.get("/indexer/nft/v1/txs/:collection_addr/:token_id").handler(this::txs);
    }

    @Override
    public String openApiFragment() {
        return "openapi/nft.json";
    }

    private void collectionsByAccount(RoutingContext rc) {
        collections(rc, NftStore.CollectionFilter.OWNER, owner(IndexerParams.account(rc, prefix)));
    }

    private void collectionsByName(RoutingContext rc) {
        collections(rc, NftStore.CollectionFilter.NAME, NftFold.normalise(rc.pathParam("name")));
    }

    private void collections(RoutingContext rc, NftStore.CollectionFilter filter, Object key) {
        PageRequest page = PageRequest.parse(rc);
        nfts.collections(filter, key, page.reverse(), page.offset(), page.limit(), page.countTotal())
                .onSuccess(p -> {
                    JsonArray items = new JsonArray();
                    for (NftStore.Collection c : p.rows()) items.add(NftJson.collection(c, prefix));
                    Responses.json(
                            rc, NftJson.list("collections", items, PageResponse.offset(page, p.more(), p.total())));
                })
                .onFailure(rc::fail);
    }

    private void collection(RoutingContext rc) {
        byte[] addr = collectionAddr(rc.pathParam("collection_addr"));
        nfts.collection(addr)
                .onSuccess(c -> {
                    if (c == null) rc.fail(BusError.notFound("nft collection not found"));
                    else Responses.json(rc, new JsonObject().put("collection", NftJson.collection(c, prefix)));
                })
                .onFailure(rc::fail);
    }

    private void tokensByAccount(RoutingContext rc) {
        byte[] owner = owner(IndexerParams.account(rc, prefix));
        String c = optional(rc, "collection_addr");
        tokens(rc, owner, c == null ? null : collectionAddr(c));
    }

    private void tokensByCollection(RoutingContext rc) {
        tokens(rc, null, collectionAddr(rc.pathParam("collection_addr")));
    }

    private void tokens(RoutingContext rc, byte[] owner, byte[] collection) {
        NftStore.TokenOrder order = order(rc);
        PageRequest page = PageRequest.parse(rc);
        // rollytics accepts a crafted {"height","token_id"} key here (it never emits one); an integer key is an offset
        NftStore.TokenCursor after = null;
        if (page.hasCursor()) {
            String id = page.cursorString("token_id");
            if (id == null) throw BusError.badRequest("pagination.key must hold a height and token_id cursor");
            after = new NftStore.TokenCursor(page.cursorLong("height"), id);
        }
        nfts.tokens(
                        owner,
                        collection,
                        optional(rc, "token_id"),
                        order,
                        page.reverse(),
                        after,
                        after == null ? page.offset() : 0,
                        page.limit(),
                        page.countTotal())
                .onSuccess(p -> {
                    JsonArray items = new JsonArray();
                    for (NftStore.Token t : p.rows()) items.add(NftJson.token(t, prefix));
                    Responses.json(rc, NftJson.list("tokens", items, PageResponse.offset(page, p.more(), p.total())));
                })
                .onFailure(rc::fail);
    }

    private void txs(RoutingContext rc) {
        byte[] collection = collectionAddr(rc.pathParam("collection_addr"));
        String tokenId = rc.pathParam("token_id");
        PageRequest page = PageRequest.parse(rc);
        nfts.txs(
                        collection,
                        tokenId,
                        vm == ChainConfig.Vm.MOVE,
                        page.reverse(),
                        IndexerParams.bound(page, "sequence"),
                        IndexerParams.offset(page),
                        page.limit(),
                        page.countTotal())
                .onSuccess(p -> Responses.json(
                        rc,
                        IndexerParams.listBody(
                                "txs",
                                p.rows(),
                                PageResponse.cursor("sequence", p.more() ? p.lastKey() : null, p.total(), page))))
                .onFailure(rc::fail);
    }

    /** {@code order_by}: token_id (default) or height. */
    static NftStore.TokenOrder order(RoutingContext rc) {
        String v = rc.queryParams().get("order_by");
        if (v == null || v.isEmpty() || v.equals("token_id")) return NftStore.TokenOrder.TOKEN_ID;
        if (v.equals("height")) return NftStore.TokenOrder.HEIGHT;
        throw BusError.badRequest("invalid order_by value '" + v + "', must be one of: token_id, height");
    }

    private static String optional(RoutingContext rc, String name) {
        String v = rc.queryParams().get(name);
        return v == null || v.isEmpty() ? null : v;
    }

    /**
     * A collection address as stored: 20 bytes on EVM (a 32-byte form with 12 leading zero bytes is narrowed), 32 on
     * Move (objects; 20-byte and short forms are left-padded), as given on Wasm.
     */
    private byte[] collectionAddr(String s) {
        return collectionAddr(s, prefix, vm);
    }

    /** {@link #collectionAddr(String)} of a chain's prefix and VM. */
    static byte[] collectionAddr(String s, String prefix, ChainConfig.Vm vm) {
        AccountAddress a;
        try {
            a = AccountAddress.parse(IndexerParams.fullLengthHex(s), prefix);
        } catch (RuntimeException e) {
            throw BusError.invalidValue("collection_addr", s, "invalid address format");
        }
        byte[] b = a.bytes();
        return switch (vm) {
            case EVM -> NftAddresses.narrow(a).bytes();
            case MOVE -> NftAddresses.pad32(b);
            case WASM -> b;
        };
    }

    /** Owners are stored in their 20-byte form when they have one. */
    private static byte[] owner(AccountAddress a) {
        return NftAddresses.narrow(a).bytes();
    }
}
