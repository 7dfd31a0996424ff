package dev.weft.api;

import dev.weft.bus.BusError;
import dev.weft.store.Partitions;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;
import io.vertx.sqlclient.Pool;

/**
 * The lists of one height under retention ({@code retention.keep_blocks}, {@code retention.internal_txs_keep_blocks}):
 * a height whose rows retention has dropped is answered 410 with the usual error body (reason {@code HISTORY_PRUNED},
 * metadata {@code oldest_height}: the first height whose rows are all kept), not an empty list that would read as "no
 * txs at that height". One probe of {@code retention_floor} a request.
 */
final class PrunedHeights {
    private final Partitions partitions;

    PrunedHeights(Pool pool) {
        this.partitions = new Partitions(pool);
    }

    /** Runs {@code next} unless {@code height} of {@code stream} is pruned (then fails the request with the 410). */
    void guard(RoutingContext rc, String stream, long height, Runnable next) {
        partitions
                .floor(stream)
                .onSuccess(f -> {
                    if (height <= f.height()) rc.fail(pruned(height, f.height()));
                    else {
                        // next parses the rest of the request: its 400 would be lost in a callback, unanswered
                        try {
                            next.run();
                        } catch (RuntimeException e) {
                            rc.fail(e);
                        }
                    }
                })
                .onFailure(rc::fail);
    }

    static BusError pruned(long height, long prunedHeight) {
        return new BusError(
                410,
                "height " + height + " was pruned by retention; the oldest height kept whole is " + (prunedHeight + 1),
                new JsonArray()
                        .add(BusError.errorInfo(
                                "HISTORY_PRUNED",
                                new JsonObject().put("oldest_height", Long.toString(prunedHeight + 1)))));
    }
}
