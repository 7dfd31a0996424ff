package dev.weft.api;

import dev.weft.bus.BusError;
import dev.weft.runtime.NodeContext;
import dev.weft.store.BlockStore;
import dev.weft.store.InternalTxStore;
import dev.weft.store.Partitions;
import io.vertx.core.Future;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;

/**
 * {@code /indexer/tx/v1/evm-internal-txs*}: the EVM tracer's internal txs (rollytics' api/handler/tx/internaltx.go), all, by account (from
 * or to, bech32 or hex), by height (as rollytics serves it besides the spec's three), and every frame of one tx by
 * hash. Sequence cursors, newest first by default, exact totals. On a chain without an EVM every route answers 404
 * {@code evm routes are not available on this chain}.
 */
public final class EvmInternalTxApi implements ApiModule {
    private static final String BASE = "/indexer/tx/v1/evm-internal-txs";

    private final InternalTxStore store;
    private final BlockStore blocks;
    private final PrunedHeights pruned;
    private final String prefix;
    private final boolean evm;

    public EvmInternalTxApi(NodeContext ctx) {
        this.store = new InternalTxStore(ctx.pool());
        this.blocks = new BlockStore(ctx.pool());
        this.pruned = new PrunedHeights(ctx.pool());
        this.prefix = ctx.config().chain().bech32Prefix();
        this.evm = ctx.config().chain().isEvm();
    }

    @Override
    public void mount(Router router) {
        router.get(BASE).handler(evm ? rc -> list(rc, InternalTxStore.Filter.ALL, null) : EvmTxApi::unavailable);
        router.get(BASE + "/by_account/:account").handler(evm ? this::byAccount : EvmTxApi::unavailable);
        router.get(BASE + "/by_height/:height").handler(evm ? this::byHeight : EvmTxApi::unavailable);
        router.get(BASE + "/:tx_hash").handler(evm ? this::byHash : EvmTxApi::unavailable);
    }

    @Override
    public String openApiFragment() {
        return "openapi/evm-internal-txs.json";
    }

    private void byAccount(RoutingContext rc) {
        list(
                rc,
                InternalTxStore.Filter.ACCOUNT,
                IndexerParams.account(rc, prefix).bytes());
    }

    private void byHeight(RoutingContext rc) {
        long height = IndexerParams.height(rc);
        pruned.guard(rc, Partitions.INTERNAL_TX, height, () -> list(rc, InternalTxStore.Filter.HEIGHT, height));
    }

    private void byHash(RoutingContext rc) {
        list(rc, InternalTxStore.Filter.HASH, IndexerParams.txHash(rc));
    }

    private void list(RoutingContext rc, InternalTxStore.Filter filter, Object key) {
        PageRequest page = PageRequest.parse(rc);
        boolean rangeable = filter == InternalTxStore.Filter.ALL || filter == InternalTxStore.Filter.ACCOUNT;
        (rangeable ? TimeRange.heights(rc, blocks) : Future.succeededFuture(new Long[2]))
                .compose(range -> store.page(new InternalTxStore.Query(
                        filter,
                        key,
                        page.reverse(),
                        IndexerParams.bound(page, "sequence"),
                        IndexerParams.offset(page),
                        page.limit(),
                        page.countTotal(),
                        range[0],
                        range[1])))
                .onSuccess(p -> {
                    // the frames of a tx are never zero: no total means no such tx
                    if (filter == InternalTxStore.Filter.HASH && p.total() == 0) {
                        rc.fail(BusError.notFound("transaction not found"));
                        return;
                    }
                    Responses.json(
                            rc,
                            IndexerParams.listBody(
                                    "internal_txs",
                                    p.rows(),
                                    PageResponse.cursor("sequence", p.more() ? p.lastKey() : null, p.total(), page)));
                })
                .onFailure(rc::fail);
    }
}
