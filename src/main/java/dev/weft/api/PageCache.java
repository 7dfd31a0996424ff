package dev.weft.api;

import dev.weft.runtime.SharedMeters;
import dev.weft.store.ReadPools;
import dev.weft.store.StatusStore;
import io.micrometer.core.instrument.Counter;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vertx.sqlclient.Pool;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Function;

/**
 * Encoded tx list first pages of one HTTP verticle instance, by request URI, each kept with the ingest commit it was read
 * after. A request first reads the ingest cursor (height and commit token: one indexed row, changed by every commit)
 * and is answered from memory when its page was encoded since that commit, so a page many clients repeat (the latest
 * txs an explorer shows every visitor) costs one page query per commit, and no answer is older than the database
 * (rollytics keeps list answers for a second whatever was committed since). Requests for a page being read after the
 * same commit wait for that read instead of running it again. A page is kept from its second request on. Event-loop
 * confined (one per instance), bounded by bytes: the least recently used pages go first, and a page larger than a
 * quarter of the bound is not kept.
 *
 * <p>With read replicas the cursor and the page are read from one server (the one {@link ReadPools#pin} picks for the
 * request), cursor first: a server's data never goes back, so a page holds at least what its cursor names, and a page
 * read on a replica behind the primary is kept under that replica's (older) cursor, never under the primary's newer one:
 * the next request that reads the primary's cursor misses and reads it again.
 */
public final class PageCache {
    /** How many keys asked once are remembered (a hash each). */
    private static final int ASKED_ONCE = 4096;

    private record Entry(String version, Buffer body) {}

    private record Pending(String version, Future<Buffer> body) {}

    private final Pool reads;
    /** A status store per server the reads were pinned to (the primary and each replica): a handful. */
    private final Map<Pool, StatusStore> statusByTarget = new HashMap<>();

    private final long maxBytes;
    private final LinkedHashMap<String, Entry> entries = new LinkedHashMap<>(64, 0.75f, true);
    private final Map<String, Pending> pending = new HashMap<>();
    /**
     * Hashes of the keys asked lately and not kept: a page is kept from its second request on, so pages asked once (the
     * first page of an account nobody else looks at) cost no cursor read and push no kept page out. A colliding hash
     * only keeps a page one request early.
     */
    private final Map<Integer, Boolean> askedOnce = new LinkedHashMap<>(256, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Integer, Boolean> eldest) {
            return size() > ASKED_ONCE;
        }
    };

    private final Meters meters = SharedMeters.of(
            "page-cache",
            r -> new Meters(
                    Counter.builder("weft_http_page_cache_requests_total")
                            .description("tx list requests by whether the page was kept since the last ingest commit")
                            .tag("outcome", "hit")
                            .register(r),
                    Counter.builder("weft_http_page_cache_requests_total")
                            .description("tx list requests by whether the page was kept since the last ingest commit")
                            .tag("outcome", "miss")
                            .register(r)));
    private long bytes;

    private record Meters(Counter hits, Counter misses) {}

    /**
     * @param reads the pool the chain's API reads with (its read pool: replicas or the primary)
     * @param maxBytes the bound of this instance's pages; 0 keeps none (every request runs its query)
     */
    public PageCache(Pool reads, long maxBytes) {
        this.reads = reads;
        this.maxBytes = maxBytes;
    }

    /**
     * The page {@code key} names, from memory when it was encoded since the last ingest commit, else from {@code read}
     * applied to the pool of the one server this request reads.
     */
    public Future<Buffer> page(String key, Function<Pool, Future<Buffer>> read) {
        Pool target = ReadPools.pin(reads);
        // the statements run on that server, or on the primary should it fail to answer them (a stopped replica); a
        // page read there after a cursor read on the replica is newer than its key, never older
        Pool via = ReadPools.fixed(reads, target);
        if (maxBytes == 0) return read.apply(via);
        if (!entries.containsKey(key)
                && !pending.containsKey(key)
                && askedOnce.put(key.hashCode(), Boolean.TRUE) == null) {
            meters.misses.increment();
            return read.apply(via); // asked for the first time (lately): not kept, so no cursor read either
        }
        StatusStore status = statusByTarget.computeIfAbsent(target, t -> new StatusStore(ReadPools.fixed(reads, t)));
        return status.commitVersion(StatusStore.INGEST).compose(version -> {
            Entry kept = entries.get(key);
            if (kept != null && kept.version.equals(version)) {
                meters.hits.increment();
                return Future.succeededFuture(kept.body);
            }
            Pending running = pending.get(key);
            if (running != null && running.version.equals(version)) {
                meters.hits.increment();
                return running.body;
            }
            meters.misses.increment();
            Future<Buffer> body = read.apply(via);
            pending.put(key, new Pending(version, body));
            return body.andThen(ar -> {
                Pending p = pending.get(key);
                if (p != null && p.body == body) pending.remove(key);
                if (ar.succeeded()) keep(key, version, ar.result());
            });
        });
    }

    private void keep(String key, String version, Buffer body) {
        if (size(key, body) > maxBytes / 4) return;
        Entry replaced = entries.put(key, new Entry(version, body));
        if (replaced != null) bytes -= size(key, replaced.body);
        bytes += size(key, body);
        for (Iterator<Map.Entry<String, Entry>> it = entries.entrySet().iterator();
                bytes > maxBytes && it.hasNext(); ) {
            Map.Entry<String, Entry> e = it.next();
            bytes -= size(e.getKey(), e.getValue().body);
            it.remove();
        }
    }

    /** What a kept page counts against the bound: its body and its key (a request line may be kilobytes long). */
    private static long size(String key, Buffer body) {
        return body.length() + 2L * key.length();
    }

    /** Bytes of the pages kept. */
    long bytes() {
        return bytes;
    }
}
