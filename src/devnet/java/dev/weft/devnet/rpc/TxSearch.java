package dev.weft.devnet.rpc;

import dev.weft.devnet.gen.Block;
import dev.weft.devnet.gen.DevnetChain;
import dev.weft.devnet.gen.Tx;
import dev.weft.devnet.http.Json;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * {@code /tx_search} over the chain generated so far: a {@code tx.hash} condition goes through the hash index; a query
 * on events only submitted txs carry (IBC, OPinit: the generator never makes them) looks at the submitted txs of every
 * height; anything else scans at most {@code window} blocks: the most recent ones, or those the {@code tx.height}
 * conditions allow (the highest of them). Runs on a worker thread.
 */
public final class TxSearch {
    private static final int REMEMBERED = 8;

    private final DevnetChain chain;
    private final int window;
    private final java.util.Map<String, List<DevnetChain.TxRef>> recent =
            new java.util.LinkedHashMap<>(16, 0.75f, true) {
                @Override
                protected boolean removeEldestEntry(java.util.Map.Entry<String, List<DevnetChain.TxRef>> e) {
                    return size() > REMEMBERED;
                }
            };

    public TxSearch(DevnetChain chain, int window) {
        this.chain = chain;
        this.window = window;
    }

    Json.Body search(Map<String, String> p) {
        List<DevnetChain.TxRef> found;
        try {
            found = find(p.get("query"), p.getOrDefault("order_by", ""));
        } catch (IllegalArgumentException e) {
            throw CometRpcServer.internal(e.getMessage());
        }
        int perPage = CometMethods.perPage(p.get("per_page"));
        int page = CometMethods.page(p.get("page"), found.size(), perPage);
        List<DevnetChain.TxRef> slice =
                found.subList(Math.min(found.size(), (page - 1) * perPage), Math.min(found.size(), page * perPage));
        int total = found.size();
        return g -> {
            g.writeStartObject();
            g.writeArrayFieldStart("txs");
            for (DevnetChain.TxRef r : slice) CometJson.resultTx(g, r.block(), r.tx());
            g.writeEndArray();
            g.writeStringField("total_count", Integer.toString(total));
            g.writeEndObject();
        };
    }

    /**
     * Every tx a CometBFT query matches, in the order asked ({@code asc}, {@code desc} or empty); the last few answers
     * are remembered per head. Throws IllegalArgumentException with CometBFT's words for a bad query or order.
     */
    public List<DevnetChain.TxRef> find(String query, String order) {
        TxQuery q = TxQuery.parse(query);
        if (!order.isEmpty() && !order.equals("asc") && !order.equals("desc")) {
            throw new IllegalArgumentException("expected order_by to be either `asc` or `desc` or empty");
        }
        String key = chain.head() + " " + order + " " + query;
        List<DevnetChain.TxRef> found;
        synchronized (recent) {
            found = recent.get(key);
        }
        if (found == null) {
            found = matches(q, order);
            synchronized (recent) {
                recent.put(key, found);
            }
        }
        return found;
    }

    /** Every tx the query matches, in the requested order. */
    private List<DevnetChain.TxRef> matches(TxQuery q, String order) {
        List<DevnetChain.TxRef> found = new ArrayList<>();
        String hash = q.hash();
        if (hash != null) {
            byte[] h = CometMethods.decodeHash(hash);
            DevnetChain.TxRef ref = h == null ? null : chain.findTx(h);
            if (ref != null && q.matches(ref.block().height, ref.tx())) found.add(ref);
        } else if (q.onlySubmittedEvents()) {
            for (var e : chain.submittedBetween(q.minHeight(1), q.maxHeight(chain.head()))
                    .entrySet()) {
                if (!chain.exists(e.getKey())) continue;
                Block b = null;
                for (Tx tx : e.getValue()) {
                    if (!q.matches(e.getKey(), tx)) continue;
                    if (b == null) b = chain.scan(e.getKey());
                    found.add(new DevnetChain.TxRef(b, b.txs.get(tx.index)));
                }
            }
        } else {
            long to = q.maxHeight(chain.head());
            long from = Math.max(
                    q.minHeight(1), to - window + 1); // tx.height conditions may point anywhere; scan ≤ window blocks
            for (long h = from; h <= to; h++) {
                if (chain.txCount(h) == 0) continue;
                Block b = chain.scan(h);
                for (Tx tx : b.txs) if (q.matches(h, tx)) found.add(new DevnetChain.TxRef(b, tx));
            }
        }
        Comparator<DevnetChain.TxRef> byPosition = Comparator.<DevnetChain.TxRef>comparingLong(r -> r.block().height)
                .thenComparingInt(r -> r.tx().index);
        found.sort(order.equals("desc") ? byPosition.reversed() : byPosition);
        return List.copyOf(found);
    }
}
