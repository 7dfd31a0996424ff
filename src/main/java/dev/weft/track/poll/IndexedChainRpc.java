package dev.weft.track.poll;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.weft.store.TxHeightsStore;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.vertx.core.Future;
import io.vertx.micrometer.backends.BackendRegistries;
import java.time.Instant;
import java.util.List;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The tracker's reads of a chain this deployment indexes, answered from the index while the chain's ingestion runs (its
 * writer lease is held somewhere in the cluster): {@code /blockchain} from the {@code block} table up to the ingest
 * cursor (which is the head the tracker follows), and the block-range {@code tx_search} of scans, catch-ups and
 * lookbacks from the {@code tx} table. So following an indexed chain costs its node no request however many transfers
 * wait on it, and scans see a block once it is indexed. The one-off searches with exact keys (the events of a hop whose
 * time is unknown) still go to the node, as do all reads while no node ingests the chain. Each read from the index is
 * counted in {@code weft_track_index_reads_total{chain_id, method}}.
 */
public final class IndexedChainRpc implements ChainRpc {
    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;
    /** What ScanAhead and ChainPoller ask for a block range: {@link ChainPoller#heightRange}. */
    private static final Pattern RANGE = Pattern.compile("tx\\.height>=(\\d+) AND tx\\.height<=(\\d+)");
    /** CometBFT answers at most 20 metas per request; the head request gets as many. */
    private static final int METAS = 20;

    private static final int IN_FLIGHT = 8;
    /** How long a look at whether the chain is ingested holds. */
    private static final long RECHECK_NANOS = 5_000_000_000L;

    private final String chainId;
    private final ChainRpc node;
    private final TxHeightsStore index;
    private final Supplier<Future<Boolean>> ingested;
    private final Counter metaReads;
    private final Counter txReads;
    private boolean following;
    private long checkedAt;
    private boolean checked;

    /**
     * @param node     the chain's node (exact searches; everything while the chain is not ingested)
     * @param ingested whether some node ingests the chain now (its ingest lease is held)
     */
    public IndexedChainRpc(String chainId, ChainRpc node, TxHeightsStore index, Supplier<Future<Boolean>> ingested) {
        this.chainId = chainId;
        this.node = node;
        this.index = index;
        this.ingested = ingested;
        MeterRegistry r = BackendRegistries.getDefaultNow();
        MeterRegistry registry = r != null ? r : new SimpleMeterRegistry();
        this.metaReads = counter(registry, chainId, "blockchain");
        this.txReads = counter(registry, chainId, "tx_search");
    }

    private static Counter counter(MeterRegistry registry, String chainId, String method) {
        return Counter.builder("weft_track_index_reads_total")
                .description(
                        "reads of an indexed chain the tracker answered from the index instead of the chain's node")
                .tag("chain_id", chainId)
                .tag("method", method)
                .register(registry);
    }

    /** Whether reads come from the index now (rechecked every few seconds; a failed check means the node). */
    private Future<Boolean> following() {
        long now = System.nanoTime();
        if (checked && now - checkedAt < RECHECK_NANOS) return Future.succeededFuture(following);
        return ingested.get().recover(e -> Future.succeededFuture(false)).map(on -> {
            following = on;
            checked = true;
            checkedAt = now;
            return on;
        });
    }

    @Override
    public Future<JsonNode> blockchain(long minHeight, long maxHeight) {
        return following().compose(on -> {
            if (!on) return node.blockchain(minHeight, maxHeight);
            return index.head().compose(head -> {
                long to = minHeight == 0 && maxHeight == 0 ? head.height() : Math.min(maxHeight, head.height());
                long from = minHeight == 0 && maxHeight == 0 ? Math.max(1, to - METAS + 1) : minHeight;
                // the block of a tx an exact search found on the node above the index's head: its time from the node
                if (minHeight == maxHeight && minHeight > head.height()) return node.blockchain(minHeight, maxHeight);
                metaReads.increment();
                // above the index's head there is nothing yet: the answer shows the head, as a node's would
                if (from > to) return Future.succeededFuture(result(head.height(), List.of()));
                return index.metas(from, to, head.height()).map(metas -> result(head.height(), metas));
            });
        });
    }

    /** A {@code /blockchain} result: the head, and the metas newest first (as CometBFT lists them). */
    private static JsonNode result(long head, List<TxHeightsStore.Meta> metas) {
        ObjectNode out = JSON.objectNode().put("last_height", Long.toString(head));
        ArrayNode list = out.putArray("block_metas");
        for (int i = metas.size() - 1; i >= 0; i--) {
            TxHeightsStore.Meta m = metas.get(i);
            ObjectNode meta = list.addObject();
            meta.putObject("header")
                    .put("height", Long.toString(m.height()))
                    .put("time", Instant.ofEpochSecond(0, m.timeNs()).toString());
            meta.put("num_txs", Long.toString(m.txs()));
        }
        return out;
    }

    @Override
    public Future<SearchPage> txSearch(String query, int page, int perPage, boolean ascending) {
        Matcher m = RANGE.matcher(query);
        if (!ascending || !m.matches()) return node.txSearch(query, page, perPage, ascending);
        long from = Long.parseLong(m.group(1));
        long to = Long.parseLong(m.group(2));
        return following().compose(on -> {
            if (!on) return node.txSearch(query, page, perPage, ascending);
            return index.head().compose(head -> {
                // a range reaching above the index (a cursor left by a tracker that read the node) is the node's
                if (to > head.height()) return node.txSearch(query, page, perPage, ascending);
                txReads.increment();
                Future<Long> total = index.count(from, to);
                Future<List<byte[]>> rows = index.page(from, to, perPage, (long) (page - 1) * perPage);
                return Future.all(total, rows).map(x -> IndexedTxs.page(chainId, total.result(), rows.result()));
            });
        });
    }

    @Override
    public boolean queueing() {
        return !following && node.queueing();
    }

    /**
     * At most {@link #IN_FLIGHT} reads at once (the node's bound when lower): the index shares its chain's pool with
     * ingestion and the API, which a tracker catching up must not flood with queries.
     */
    @Override
    public int maxInFlight() {
        return Math.min(IN_FLIGHT, node.maxInFlight());
    }
}
