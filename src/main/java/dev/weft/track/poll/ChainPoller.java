package dev.weft.track.poll;

import com.fasterxml.jackson.databind.JsonNode;
import dev.weft.store.TransferStore;
import dev.weft.track.ObservedTx;
import io.vertx.core.Future;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Polls one chain for the tracker, in batches whatever the number of transfers waiting on it: a scan reads the block
 * metas of the new blocks ({@code /blockchain}, 20 per request: heights, times, tx counts) and, when some hold txs,
 * every tx of those blocks in pages ({@code tx_search "tx.height>=a AND tx.height<=b"}, ascending), to be matched
 * locally. A scan covers at most {@code maxBlocks} blocks and {@code maxPages} pages, so a tracker that fell behind
 * catches up over several cycles. One-off searches (a newly tracked hash, a catch-up for an old packet) are
 * {@code tx_search} queries with exact keys; their block times come from {@code /blockchain} too (cached).
 */
public final class ChainPoller {
  private static final int METAS_PER_REQUEST = 20;
  private static final int TIME_CACHE = 4096;

  private final String chainId;
  private final ChainRpc rpc;
  private final int maxBlocks;
  private final int pageSize;
  private final int maxPages;
  private TransferStore.Cursor cursor;
  private final Map<Long, Long> times = new LinkedHashMap<>(TIME_CACHE, 0.75f, true) {
    @Override
    protected boolean removeEldestEntry(Map.Entry<Long, Long> e) {
      return size() > TIME_CACHE;
    }
  };

  /** The txs a scan found and the cursor it reached; {@code coveredBefore} = the block time scans had reached before. */
  public record Scan(List<ObservedTx> txs, TransferStore.Cursor cursor, Long coveredBefore) {}

  public ChainPoller(String chainId, ChainRpc rpc, TransferStore.Cursor cursor, int maxBlocks, int pageSize, int maxPages) {
    this.chainId = chainId;
    this.rpc = rpc;
    this.cursor = cursor;
    this.maxBlocks = maxBlocks;
    this.pageSize = pageSize;
    this.maxPages = maxPages;
  }

  public String chainId() {
    return chainId;
  }

  /** Where scans are (null before the first one). */
  public TransferStore.Cursor cursor() {
    return cursor;
  }

  /**
   * Scans the blocks after the cursor. The first scan of a chain starts at its head (nothing before it is read: the
   * tracker catches up on older events with exact searches).
   */
  public Future<Scan> scan() {
    TransferStore.Cursor before = cursor;
    if (before == null) {
      return rpc.blockchain(0, 0).map(r -> {
        TreeMap<Long, long[]> metas = metas(r);
        long head = r.path("last_height").asLong();
        long[] m = metas.get(head);
        cursor = new TransferStore.Cursor(head, m == null ? 0 : m[0]);
        return new Scan(List.of(), cursor, null);
      });
    }
    long from = before.height() + 1;
    return rpc.blockchain(from, from + METAS_PER_REQUEST - 1).compose(first -> {
      long head = first.path("last_height").asLong();
      long to = Math.min(head, before.height() + maxBlocks);
      if (to < from) return Future.succeededFuture(new Scan(List.of(), before, before.timeNanos()));
      TreeMap<Long, long[]> metas = metas(first);
      List<Future<JsonNode>> more = new ArrayList<>();
      for (long h = from + METAS_PER_REQUEST; h <= to; h += METAS_PER_REQUEST) more.add(rpc.blockchain(h, Math.min(to, h + METAS_PER_REQUEST - 1)));
      return Future.all(more).compose(all -> {
        for (int i = 0; i < more.size(); i++) metas.putAll(metas(all.resultAt(i)));
        return txsOf(metas, from, to, before);
      });
    });
  }

  /** The txs of the scanned blocks (trimmed to {@code maxPages} pages of txs), and the new cursor. */
  private Future<Scan> txsOf(TreeMap<Long, long[]> metas, long from, long to, TransferStore.Cursor before) {
    long end = from - 1;
    long txCount = 0;
    for (long h = from; h <= to && metas.containsKey(h); h++) {
      long n = metas.get(h)[1];
      if (txCount > 0 && txCount + n > (long) pageSize * maxPages) break;
      txCount += n;
      end = h;
    }
    if (end < from) return Future.succeededFuture(new Scan(List.of(), before, before.timeNanos()));
    metas.forEach((h, m) -> times.put(h, m[0]));
    TransferStore.Cursor next = new TransferStore.Cursor(end, metas.get(end)[0]);
    if (txCount == 0) {
      cursor = next;
      return Future.succeededFuture(new Scan(List.of(), next, before.timeNanos()));
    }
    long last = end;
    return search("tx.height>=" + from + " AND tx.height<=" + last, Integer.MAX_VALUE, Integer.MAX_VALUE).map(txs -> {
      cursor = next;
      return new Scan(txs, next, before.timeNanos());
    });
  }

  /** The txs a one-off query matches (at most {@code limit}, ascending), with their block times. */
  public Future<List<ObservedTx>> search(String query, int limit) {
    return search(query, limit, maxPages);
  }

  private Future<List<ObservedTx>> search(String query, int limit, int pageLimit) {
    int perPage = Math.min(pageSize, limit);
    return rpc.txSearch(query, 1, perPage, true).compose(first -> {
      long total = first.path("total_count").asLong();
      long wanted = Math.min(total, limit);
      int pages = (int) Math.min((wanted + perPage - 1) / perPage, pageLimit);
      List<Future<JsonNode>> rest = new ArrayList<>();
      for (int p = 2; p <= pages; p++) rest.add(rpc.txSearch(query, p, perPage, true));
      return Future.all(rest).compose(all -> {
        List<JsonNode> txs = new ArrayList<>();
        first.path("txs").forEach(txs::add);
        for (int i = 0; i < rest.size(); i++) all.<JsonNode>resultAt(i).path("txs").forEach(txs::add);
        if (txs.size() > limit) txs = txs.subList(0, limit);
        return withTimes(txs);
      });
    });
  }

  private Future<List<ObservedTx>> withTimes(List<JsonNode> txs) {
    List<Future<JsonNode>> lookups = new ArrayList<>();
    List<Long> missing = new ArrayList<>();
    for (JsonNode tx : txs) {
      long h = tx.path("height").asLong();
      if (!times.containsKey(h) && !missing.contains(h)) {
        missing.add(h);
        lookups.add(rpc.blockchain(h, h));
      }
    }
    return Future.all(lookups).map(all -> {
      for (int i = 0; i < lookups.size(); i++) metas(all.resultAt(i)).forEach((h, m) -> times.put(h, m[0]));
      List<ObservedTx> out = new ArrayList<>(txs.size());
      for (JsonNode tx : txs) out.add(TxJson.observed(chainId, tx, times.getOrDefault(tx.path("height").asLong(), 0L)));
      return out;
    });
  }

  /** height → {block time ns, tx count} of a {@code /blockchain} result. */
  private static TreeMap<Long, long[]> metas(JsonNode result) {
    TreeMap<Long, long[]> out = new TreeMap<>();
    for (JsonNode m : result.path("block_metas")) {
      JsonNode header = m.path("header");
      out.put(header.path("height").asLong(), new long[]{TxJson.timeNanos(header.path("time").asText()), m.path("num_txs").asLong()});
    }
    return out;
  }
}
