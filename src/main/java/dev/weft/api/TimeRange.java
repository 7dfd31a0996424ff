package dev.weft.api;

import dev.weft.bus.BusError;
import dev.weft.store.BlockStore;
import io.vertx.core.Future;
import io.vertx.ext.web.RoutingContext;

/**
 * {@code from_time} and {@code to_time} (RFC 3339, inclusive) of a list, turned into the heights of the blocks they
 * bound and combined with {@code from_height}/{@code to_height}: the lists keep one range, of heights. Block times
 * never decrease (CometBFT's BFT time is monotonic), so the blocks in a time range are a height range, found with one
 * probe of the {@code block (time_ns, height)} index at each end.
 */
final class TimeRange {
    private TimeRange() {}

    /**
     * The list's height range: {@code from_height}/{@code to_height} narrowed by {@code from_time}/{@code to_time}. A
     * time range no block falls in gives an empty range (from above to), which the stores answer with no rows.
     */
    static Future<Long[]> heights(RoutingContext rc, BlockStore blocks) {
        Long[] heights = IndexerParams.heightRange(rc);
        Long fromNs = time(rc, "from_time");
        Long toNs = time(rc, "to_time");
        if (fromNs != null && toNs != null && fromNs > toNs)
            throw BusError.invalidValue("from_time", rc.queryParams().get("from_time"), "must not be after to_time");
        if (fromNs == null && toNs == null) return Future.succeededFuture(heights);
        return blocks.heightsAt(fromNs, toNs).map(h -> {
            Long from = heights[0];
            Long to = heights[1];
            // no block at or after from_time: nothing is in range; no block at or before to_time: likewise
            if (fromNs != null) from = max(from, h[0] == null ? Long.MAX_VALUE : h[0]);
            if (toNs != null) to = min(to, h[1] == null ? 0L : h[1]);
            return new Long[] {from, to};
        });
    }

    /** An optional RFC 3339 timestamp parameter, in nanoseconds since the epoch; a malformed one is a 400 naming it. */
    static Long time(RoutingContext rc, String name) {
        String v = rc.queryParams().get(name);
        if (v == null || v.isBlank()) return null;
        java.time.Instant i;
        try {
            i = java.time.OffsetDateTime.parse(v.trim()).toInstant();
        } catch (RuntimeException e) {
            throw BusError.invalidValue(name, v, "must be an RFC 3339 timestamp such as 2025-06-01T00:00:00Z");
        }
        try {
            return Math.addExact(Math.multiplyExact(i.getEpochSecond(), 1_000_000_000L), i.getNano());
        } catch (ArithmeticException e) {
            // beyond the nanosecond range (years before 1678 or after 2262): before or after every block
            return i.getEpochSecond() < 0 ? Long.MIN_VALUE : Long.MAX_VALUE;
        }
    }

    private static Long max(Long a, long b) {
        return a == null ? b : Math.max(a, b);
    }

    private static Long min(Long a, long b) {
        return a == null ? b : Math.min(a, b);
    }
}
