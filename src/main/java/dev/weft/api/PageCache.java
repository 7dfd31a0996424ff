package dev.weft.api;

import dev.weft.runtime.SharedMeters;
import dev.weft.store.StatusStore;
import io.micrometer.core.instrument.Counter;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;

import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Encoded tx list first pages of one HTTP verticle instance, by request URI, each kept with the ingest commit it was read
 * after. A request first reads the ingest cursor (height and commit token: one indexed row, changed by every commit)
 * and is answered from memory when its page was encoded since that commit, so a page many clients repeat (the latest
 * txs an explorer shows every visitor) costs one page query per commit, and no answer is older than the database
 * (rollytics keeps list answers for a second whatever was committed since). Requests for a page being read after the
 * same commit wait for that read instead of running it again. Event-loop confined (one per instance), bounded by
 * bytes: the least recently used pages go first, and a page larger than a quarter of the bound is not kept.
 */
public final class PageCache {
  private record Entry(String version, Buffer body) {}

  private record Pending(String version, Future<Buffer> body) {}

  private final StatusStore status;
  private final long maxBytes;
  private final LinkedHashMap<String, Entry> entries = new LinkedHashMap<>(64, 0.75f, true);
  private final Map<String, Pending> pending = new HashMap<>();
  private final Meters meters = SharedMeters.of("page-cache", r -> new Meters(
      Counter.builder("weft_http_page_cache_requests_total").description("tx list requests by whether the page was kept since the last ingest commit")
          .tag("outcome", "hit").register(r),
      Counter.builder("weft_http_page_cache_requests_total").description("tx list requests by whether the page was kept since the last ingest commit")
          .tag("outcome", "miss").register(r)));
  private long bytes;

  private record Meters(Counter hits, Counter misses) {}

  /** @param maxBytes the bound of this instance's pages; 0 keeps none (every request runs its query) */
  public PageCache(StatusStore status, long maxBytes) {
    this.status = status;
    this.maxBytes = maxBytes;
  }

  /** The page {@code key} names, from memory when it was encoded since the last ingest commit, else from {@code read}. */
  public Future<Buffer> page(String key, Supplier<Future<Buffer>> read) {
    if (maxBytes == 0) return read.get();
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
      Future<Buffer> body = read.get();
      pending.put(key, new Pending(version, body));
      return body.andThen(ar -> {
        Pending p = pending.get(key);
        if (p != null && p.body == body) pending.remove(key);
        if (ar.succeeded()) keep(key, version, ar.result());
      });
    });
  }

  private void keep(String key, String version, Buffer body) {
    if (body.length() > maxBytes / 4) return;
    Entry replaced = entries.put(key, new Entry(version, body));
    if (replaced != null) bytes -= replaced.body.length();
    bytes += body.length();
    for (Iterator<Entry> it = entries.values().iterator(); bytes > maxBytes && it.hasNext(); ) {
      bytes -= it.next().body.length();
      it.remove();
    }
  }

  /** Bytes of the pages kept. */
  long bytes() {
    return bytes;
  }
}
