package dev.weft.api;

import dev.weft.bus.BusError;
import dev.weft.runtime.NodeContext;
import dev.weft.store.BlockStore;
import io.vertx.core.buffer.Buffer;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;

/** {@code /indexer/block/v1/*}: block pages (height cursor, exact block count), one block, average block time. */
public final class BlockApi implements ApiModule {
    /** rollytics averages over the last 100 blocks (kvindexer used 1000). */
    static final int AVG_WINDOW = 100;

    private final BlockStore blocks;

    public BlockApi(NodeContext ctx) {
        this.blocks = new BlockStore(ctx.pool());
    }

    @Override
    public void mount(Router router) {
        router.get("/indexer/block/v1/blocks").handler(this::list);
        router.get("/indexer/block/v1/blocks/:height").handler(this::one);
        router.get("/indexer/block/v1/avg_blocktime").handler(this::average);
    }

    @Override
    public String openApiFragment() {
        return "openapi/blocks.json";
    }

    private void list(RoutingContext rc) {
        PageRequest page = PageRequest.parse(rc);
        // the total is filled whatever count_total says, as rollytics and kvindexer do (kvindexer clients, which cannot
        // ask for counts, read the chain's length from it)
        PageRequest counted = page.withCountTotal(true);
        blocks.page(page.reverse(), IndexerParams.bound(page, "height"), IndexerParams.offset(page), page.limit())
                .onSuccess(p -> Responses.json(
                        rc,
                        IndexerParams.listBody(
                                "blocks",
                                p.rows(),
                                PageResponse.cursor("height", p.more() ? p.lastKey() : null, p.total(), counted))))
                .onFailure(rc::fail);
    }

    private void one(RoutingContext rc) {
        long height = IndexerParams.height(rc);
        blocks.get(height)
                .onSuccess(json -> {
                    if (json == null) rc.fail(BusError.notFound("[NOT_FOUND] block not found"));
                    else Responses.json(rc, IndexerParams.singleBody("block", json));
                })
                .onFailure(rc::fail);
    }

    private void average(RoutingContext rc) {
        blocks.averageBlockTime(AVG_WINDOW)
                .onSuccess(avg ->
                        Responses.json(rc, Buffer.buffer("{\"avg_block_time\":" + IndexerParams.goFloat(avg) + "}")))
                .onFailure(rc::fail);
    }
}
