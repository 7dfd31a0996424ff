package dev.weft.api;

import dev.weft.bus.BusError;
import dev.weft.chain.model.Rfc3339;
import dev.weft.runtime.NodeContext;
import dev.weft.store.StatsStore;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import java.time.LocalDate;
import java.util.HashMap;
import java.util.Map;

/**
 * {@code GET /indexer/stats/v1/overview?days=N}: the latest block, the average block time over the last
 * {@link #WINDOW} blocks, the tx, EVM tx and account totals, and the txs and active accounts of each of the last N days
 * (UTC days by block time, ending with the latest block's day; a day without txs reads 0). All counters of the ingest
 * commit.
 */
public final class StatsApi implements ApiModule {
    /** The block window of the average block time (as {@code /indexer/block/v1/avg_blocktime}). */
    static final int WINDOW = 100;

    static final int DEFAULT_DAYS = 14;
    static final int MAX_DAYS = 90;
    private static final long DAY_NS = 86_400_000_000_000L;

    private final StatsStore store;

    public StatsApi(NodeContext ctx) {
        this.store = new StatsStore(ctx.pool());
    }

    @Override
    public void mount(Router router) {
        router.get("/indexer/stats/v1/overview").handler(this::overview);
    }

    @Override
    public String openApiFragment() {
        return "openapi/stats.json";
    }

    private void overview(RoutingContext rc) {
        int days = days(rc);
        store.overview(WINDOW)
                .compose(o -> {
                    if (o.latestHeight() == null) return Future.succeededFuture(body(o, days, Map.of()));
                    int last = (int) Math.floorDiv(o.latestTimeNs(), DAY_NS);
                    return store.days(last - days + 1, last).map(list -> {
                        Map<Integer, StatsStore.Day> byDay = new HashMap<>();
                        for (StatsStore.Day d : list) byDay.put(d.day(), d);
                        return body(o, days, byDay);
                    });
                })
                .onSuccess(b -> Responses.json(rc, new JsonObject().put("overview", b)))
                .onFailure(rc::fail);
    }

    private static JsonObject body(StatsStore.Overview o, int days, Map<Integer, StatsStore.Day> byDay) {
        double avg = o.windowBlocks() < 2 ? 0 : (o.latestTimeNs() - o.oldestNs()) / 1e9 / (o.windowBlocks() - 1);
        JsonArray perDay = new JsonArray();
        if (o.latestHeight() != null) {
            int last = (int) Math.floorDiv(o.latestTimeNs(), DAY_NS);
            for (int d = last; d > last - days; d--) {
                StatsStore.Day x = byDay.get(d);
                perDay.add(new JsonObject()
                        .put("date", LocalDate.ofEpochDay(d).toString())
                        .put("txs", Long.toString(x == null ? 0 : x.txs()))
                        .put("active_accounts", Long.toString(x == null ? 0 : x.activeAccounts())));
            }
        }
        return new JsonObject()
                .put("latest_height", o.latestHeight() == null ? null : Long.toString(o.latestHeight()))
                .put("latest_block_time", o.latestTimeNs() == null ? null : Rfc3339.nanos(o.latestTimeNs()))
                .put("avg_block_time", Double.parseDouble(IndexerParams.goFloat(avg)))
                .put("avg_block_time_blocks", o.windowBlocks())
                .put("txs", Long.toString(o.txs()))
                .put("evm_txs", Long.toString(o.evmTxs()))
                .put("accounts", Long.toString(o.accounts()))
                .put("days", perDay);
    }

    /** {@code days}: 1..{@link #MAX_DAYS}, {@link #DEFAULT_DAYS} when absent. */
    private static int days(RoutingContext rc) {
        String v = rc.queryParams().get("days");
        if (v == null || v.isBlank()) return DEFAULT_DAYS;
        long d;
        try {
            d = IndexerParams.wholeNumber(v);
        } catch (RuntimeException e) {
            throw BusError.invalidValue("days", v, "must be a valid integer");
        }
        if (d < 1 || d > MAX_DAYS) throw BusError.invalidValue("days", v, "must be between 1 and " + MAX_DAYS);
        return (int) d;
    }
}
