package dev.weft.api;

import dev.weft.bus.BusError;
import dev.weft.chain.AccountAddress;
import dev.weft.model.ingest.TxCategory;
import dev.weft.runtime.NodeContext;
import dev.weft.store.BlockStore;
import dev.weft.store.Partitions;
import dev.weft.store.TxStore;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.sqlclient.Pool;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * {@code /indexer/tx/v1/txs*}: Cosmos tx pages (sequence cursor, exact totals, {@code msgs} filter on every list,
 * {@code is_signer} on by_account), one tx by hash, and kvindexer's {@code /txs/count}.
 */
public final class TxApi implements ApiModule {
    private final TxStore txs;
    private final TxStores pageStores;
    private final BlockStore blocks;
    private final PrunedHeights pruned;
    private final PageCache pages;
    private final String prefix;
    private final dev.weft.config.ExportConfig export;

    public TxApi(NodeContext ctx, PageCache pages) {
        this.txs = new TxStore(ctx.pool());
        this.pageStores = new TxStores(ctx.pool(), txs);
        this.blocks = new BlockStore(ctx.pool());
        this.pruned = new PrunedHeights(ctx.pool());
        this.pages = pages;
        this.prefix = ctx.config().chain().bech32Prefix();
        this.export = ctx.config().export();
    }

    @Override
    public void mount(Router router) {
        router.get("/indexer/tx/v1/txs").handler(this::all);
        // before /txs/:tx_hash, which would read "count" as a (malformed) hash
        router.get("/indexer/tx/v1/txs/count").handler(this::count);
        router.get("/indexer/tx/v1/txs/by_account/:account").handler(this::byAccount);
        router.get("/indexer/tx/v1/txs/by_height/:height").handler(this::byHeight);
        router.get("/indexer/tx/v1/txs/:tx_hash").handler(this::one);
    }

    @Override
    public String openApiFragment() {
        return "openapi/txs.json";
    }

    private void all(RoutingContext rc) {
        list(rc, TxStore.Filter.ALL, null);
    }

    private void byAccount(RoutingContext rc) {
        AccountAddress a = IndexerParams.account(rc, prefix);
        TxStore.Filter filter = IndexerParams.isSigner(rc) ? TxStore.Filter.SIGNER : TxStore.Filter.ACCOUNT;
        Short category = category(rc);
        if (CsvExport.wanted(rc)) export(rc, blocks, txs, TxStore.Stream.COSMOS, filter, a, category, export, prefix);
        else list(rc, filter, a.bytes(), category);
    }

    /** The CSV export of an account's txs of a stream, with the JSON list's filters ({@link TxCsv}). */
    static void export(
            RoutingContext rc,
            BlockStore blocks,
            TxStore txs,
            TxStore.Stream stream,
            TxStore.Filter filter,
            AccountAddress account,
            Short category,
            dev.weft.config.ExportConfig export,
            String prefix) {
        PageRequest page = PageRequest.parse(rc);
        List<String> msgs = stream == TxStore.Stream.COSMOS ? IndexerParams.msgs(rc) : null;
        long start = IndexerParams.bound(page, "sequence");
        String name = (stream == TxStore.Stream.COSMOS ? "txs-" : "evm-txs-") + account.bech32(prefix) + ".csv";
        TimeRange.heights(rc, blocks)
                .onSuccess(range -> TxCsv.export(
                        rc,
                        txs,
                        new TxStore.Query(
                                stream,
                                filter,
                                account.bytes(),
                                msgs,
                                page.reverse(),
                                start,
                                0,
                                1,
                                false,
                                range[0],
                                range[1],
                                category),
                        start,
                        export,
                        name))
                .onFailure(rc::fail);
    }

    /** {@code category}: one of {@link TxCategory}'s labels (any case), or null when absent; anything else is a 400. */
    static Short category(RoutingContext rc) {
        String v = rc.queryParams().get("category");
        if (v == null || v.isBlank()) return null;
        TxCategory c = TxCategory.named(v);
        if (c == null)
            throw BusError.invalidValue(
                    "category", v, "must be one of send, ibc, opinit, evm_call, move_execute, wasm_execute");
        return c.code;
    }

    private void byHeight(RoutingContext rc) {
        long height = IndexerParams.height(rc);
        pruned.guard(rc, Partitions.TX, height, () -> list(rc, TxStore.Filter.HEIGHT, height));
    }

    private void list(RoutingContext rc, TxStore.Filter filter, Object key) {
        list(rc, filter, key, null);
    }

    private void list(RoutingContext rc, TxStore.Filter filter, Object key, Short category) {
        PageRequest page = PageRequest.parse(rc);
        List<String> msgs = IndexerParams.msgs(rc);
        range(rc, blocks, filter)
                .onSuccess(range -> page(
                        rc,
                        pages,
                        pageStores,
                        new TxStore.Query(
                                TxStore.Stream.COSMOS,
                                filter,
                                key,
                                msgs,
                                page.reverse(),
                                IndexerParams.bound(page, "sequence"),
                                IndexerParams.offset(page),
                                page.limit(),
                                page.countTotal(),
                                range[0],
                                range[1],
                                category),
                        page))
                .onFailure(rc::fail);
    }

    /**
     * The tx store of each server a page can be pinned to (the read pool itself, the primary, each replica), so each
     * keeps its built SQL; a handful per instance.
     */
    static final class TxStores {
        private final Pool routed;
        private final Map<Pool, TxStore> byTarget = new java.util.concurrent.ConcurrentHashMap<>();

        TxStores(Pool routed, TxStore onRouted) {
            this.routed = routed;
            byTarget.put(routed, onRouted);
        }

        Pool routed() {
            return routed;
        }

        TxStore on(Pool target) {
            return byTarget.computeIfAbsent(target, TxStore::new);
        }
    }

    /** The height range of a list (heights and times); none on a block's txs, which are one height. */
    static Future<Long[]> range(RoutingContext rc, BlockStore blocks, TxStore.Filter filter) {
        return filter == TxStore.Filter.HEIGHT ? Future.succeededFuture(new Long[2]) : TimeRange.heights(rc, blocks);
    }

    /**
     * Answers {@code {"txs":[…],"pagination":{…}}} for a tx list query. The first page (no key, no offset: what clients
     * poll) of every txs and of an account's txs comes from the instance's page cache when the same request (path and
     * query string) was answered since the last ingest commit. A page further on, and a block's txs, are read every time:
     * few clients ask for the same one between two commits, and each would push a kept page out and cost the cursor read.
     */
    static void page(RoutingContext rc, PageCache pages, TxStores stores, TxStore.Query q, PageRequest page) {
        Function<Pool, Future<Buffer>> read = target -> stores.on(target)
                .page(q)
                .map(p -> IndexerParams.listBody(
                        "txs",
                        p.rows(),
                        PageResponse.cursor("sequence", p.more() ? p.lastKey() : null, p.total(), page)));
        boolean polled = !page.hasCursor() && page.offset() == 0 && q.filter() != TxStore.Filter.HEIGHT;
        (polled ? pages.page(rc.request().uri(), read) : read.apply(stores.routed()))
                .onSuccess(body -> Responses.json(rc, body))
                .onFailure(rc::fail);
    }

    /**
     * kvindexer's {@code TxCount}: {@code {"count":"N"}} (a uint64, so a string in gRPC-gateway JSON), the number of
     * Cosmos txs indexed, equal to the {@code total} of {@code /indexer/tx/v1/txs}.
     */
    private void count(RoutingContext rc) {
        txs.count(TxStore.Stream.COSMOS)
                .onSuccess(n -> Responses.json(rc, Buffer.buffer("{\"count\":\"" + n + "\"}")))
                .onFailure(rc::fail);
    }

    private void one(RoutingContext rc) {
        byte[] hash = IndexerParams.txHash(rc);
        txs.byHash(TxStore.Stream.COSMOS, hash)
                .onSuccess(json -> {
                    if (json == null) rc.fail(BusError.notFound("[NOT_FOUND] transaction not found"));
                    else Responses.json(rc, IndexerParams.singleBody("tx", json));
                })
                .onFailure(rc::fail);
    }
}
