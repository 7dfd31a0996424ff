package dev.weft.api;

import dev.weft.bus.BusError;
import dev.weft.runtime.NodeContext;
import dev.weft.store.BlockStore;
import dev.weft.store.Partitions;
import dev.weft.store.TxStore;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;

/**
 * {@code /indexer/tx/v1/evm-txs*}: EVM receipts (the subset of receipt fields rollytics keeps) by height, by account, all, and one by hash. On a
 * chain without an EVM every route answers 404 {@code evm routes are not available on this chain}, as rollytics does.
 */
public final class EvmTxApi implements ApiModule {
    private final TxStore txs;
    private final TxApi.TxStores pageStores;
    private final BlockStore blocks;
    private final PrunedHeights pruned;
    private final PageCache pages;
    private final String prefix;
    private final boolean evm;
    private final dev.weft.config.ExportConfig export;

    public EvmTxApi(NodeContext ctx, PageCache pages) {
        this.txs = new TxStore(ctx.pool());
        this.pageStores = new TxApi.TxStores(ctx.pool(), txs);
        this.blocks = new BlockStore(ctx.pool());
        this.pruned = new PrunedHeights(ctx.pool());
        this.pages = pages;
        this.prefix = ctx.config().chain().bech32Prefix();
        this.evm = ctx.config().chain().isEvm();
        this.export = ctx.config().export();
    }

    @Override
    public void mount(Router router) {
        router.get("/indexer/tx/v1/evm-txs")
                .handler(evm ? rc -> list(rc, TxStore.Filter.ALL, null) : EvmTxApi::unavailable);
        router.get("/indexer/tx/v1/evm-txs/by_account/:account").handler(evm ? this::byAccount : EvmTxApi::unavailable);
        router.get("/indexer/tx/v1/evm-txs/by_height/:height").handler(evm ? this::byHeight : EvmTxApi::unavailable);
        router.get("/indexer/tx/v1/evm-txs/:tx_hash").handler(evm ? this::one : EvmTxApi::unavailable);
    }

    @Override
    public String openApiFragment() {
        return "openapi/evm-txs.json";
    }

    /** The answer of every EVM route (receipts and internal txs) on a chain without an EVM, as rollytics gives it. */
    static void unavailable(RoutingContext rc) {
        rc.fail(BusError.notFound("evm routes are not available on this chain"));
    }

    private void byAccount(RoutingContext rc) {
        dev.weft.chain.AccountAddress a = IndexerParams.account(rc, prefix);
        TxStore.Filter filter = IndexerParams.isSigner(rc) ? TxStore.Filter.SIGNER : TxStore.Filter.ACCOUNT;
        if (CsvExport.wanted(rc)) TxApi.export(rc, blocks, txs, TxStore.Stream.EVM, filter, a, null, export, prefix);
        else list(rc, filter, a.bytes());
    }

    private void byHeight(RoutingContext rc) {
        long height = IndexerParams.height(rc);
        pruned.guard(rc, Partitions.EVM_TX, height, () -> list(rc, TxStore.Filter.HEIGHT, height));
    }

    private void list(RoutingContext rc, TxStore.Filter filter, Object key) {
        PageRequest page = PageRequest.parse(rc);
        TxApi.range(rc, blocks, filter)
                .onSuccess(range -> TxApi.page(
                        rc,
                        pages,
                        pageStores,
                        new TxStore.Query(
                                TxStore.Stream.EVM,
                                filter,
                                key,
                                null,
                                page.reverse(),
                                IndexerParams.bound(page, "sequence"),
                                IndexerParams.offset(page),
                                page.limit(),
                                page.countTotal(),
                                range[0],
                                range[1]),
                        page))
                .onFailure(rc::fail);
    }

    private void one(RoutingContext rc) {
        byte[] hash = IndexerParams.txHash(rc);
        txs.byHash(TxStore.Stream.EVM, hash)
                .onSuccess(json -> {
                    if (json == null) rc.fail(BusError.notFound("tx not found"));
                    else Responses.json(rc, IndexerParams.singleBody("tx", json));
                })
                .onFailure(rc::fail);
    }
}
