package dev.weft.devnet.rpc;

import dev.weft.chain.Hex;
import dev.weft.devnet.gen.Block;
import dev.weft.devnet.gen.DevnetChain;
import dev.weft.devnet.gen.Mix;
import dev.weft.devnet.gen.Tx;
import dev.weft.devnet.gen.Validator;
import dev.weft.devnet.http.Json;
import dev.weft.devnet.http.JsonRpc;
import dev.weft.devnet.http.Times;
import dev.weft.devnet.json.JsonOut;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.function.IntSupplier;

/** The CometBFT RPC methods the devnet serves, with CometBFT's parameter rules and error texts. */
final class CometMethods {
    static final String VERSION = "0.38.17";
    private static final int BLOCKCHAIN_LIMIT = 20;

    private final Vertx vertx;
    private final DevnetChain chain;
    private final String host;
    private final IntSupplier port;
    private final String nodeId;
    private final BroadcastMethods broadcast;
    private final TxSearch search;
    private final CometChainInfo info;
    private final AbciQuery abci;

    /** @param broadcaster where broadcast txs go; null when the chain takes none */
    CometMethods(
            Vertx vertx,
            DevnetChain chain,
            String host,
            int searchWindow,
            IntSupplier port,
            dev.weft.devnet.mempool.Broadcaster broadcaster) {
        this.broadcast = new BroadcastMethods(vertx, broadcaster);
        this.info = new CometChainInfo(chain, broadcaster, searchWindow);
        this.abci = new AbciQuery(chain, broadcaster);
        this.search = new TxSearch(chain, searchWindow);
        this.vertx = vertx;
        this.chain = chain;
        this.host = host;
        this.port = port;
        this.nodeId = Hex.lower(Mix.bytes(chain.spec().seed(), 51, 0, 20));
    }

    Future<Json.Body> call(String method, Map<String, String> p) {
        return switch (method) {
            case "status" -> done(this::status);
            case "health" ->
                done(g -> {
                    g.writeStartObject();
                    g.writeEndObject();
                });
            case "block" ->
                onWorker(() -> {
                    Block b = chain.block(height(p.get("height")));
                    return g -> CometJson.block(g, b, chain.spec().chainId());
                });
            case "block_results" ->
                onWorker(() -> {
                    Block b = chain.block(height(p.get("height")));
                    return g -> CometJson.blockResults(g, b);
                });
            case "blockchain" -> blockchain(p);
            case "validators" -> validators(p);
            case "tx" -> tx(p);
            case "tx_search" -> onWorker(() -> search.search(p));
            case "broadcast_tx_sync", "broadcast_tx_async" -> broadcast.sync(p.get("tx"));
            case "broadcast_tx_commit" -> broadcast.commit(p.get("tx"));
            case "header" -> done(info.header(height(p.get("height"))));
            case "commit" -> done(info.commit(height(p.get("height"))));
            case "genesis" -> done(info.genesis());
            case "abci_info" -> done(info.abciInfo());
            case "abci_query" -> done(abci.query(p.get("path"), p.get("data"), p.get("height")));
            case "num_unconfirmed_txs" -> done(info.numUnconfirmedTxs());
            case "block_search" -> onWorker(() -> info.blockSearch(p));
            default -> throw new JsonRpc.Error(-32601, "Method not found", null);
        };
    }

    private static Future<Json.Body> done(Json.Body body) {
        return Future.succeededFuture(body);
    }

    /**
     * An answer found and rendered on a worker (blocks, their results, searches: an indexer's costliest reads), so the
     * event loop that serves every connection and fires every latency timer only copies its bytes.
     */
    private Future<Json.Body> onWorker(java.util.concurrent.Callable<Json.Body> answer) {
        return vertx.executeBlocking(() -> Json.rendered(answer.call()), false);
    }

    /** CometBFT's {@code getHeight}: absent = latest; otherwise within [1, latest]. */
    private long height(String s) {
        long latest = chain.head();
        if (s == null || s.isEmpty()) return requireHead(latest);
        long h = parseLong(s, "height");
        if (h <= 0) throw CometRpcServer.internal("height must be greater than 0, but got " + h);
        if (h > latest)
            throw CometRpcServer.internal(
                    "height " + h + " must be less than or equal to the current blockchain height " + latest);
        return h;
    }

    private static long requireHead(long latest) {
        if (latest < 1)
            throw CometRpcServer.internal("height 1 must be less than or equal to the current blockchain height 0");
        return latest;
    }

    static long parseLong(String s, String name) {
        try {
            return Long.parseLong(s.trim());
        } catch (NumberFormatException e) {
            throw CometRpcServer.invalidParams(
                    "error converting http params to arguments: invalid " + name + " \"" + s + "\"");
        }
    }

    private void status(JsonOut g) {
        long head = chain.head();
        g.writeStartObject();
        g.writeObjectFieldStart("node_info");
        g.writeObjectFieldStart("protocol_version");
        g.writeStringField("p2p", "8");
        g.writeStringField("block", CometJson.BLOCK_PROTOCOL);
        g.writeStringField("app", "0");
        g.writeEndObject();
        g.writeStringField("id", nodeId);
        g.writeStringField("listen_addr", "tcp://0.0.0.0:26656");
        g.writeStringField("network", chain.spec().chainId());
        g.writeStringField("version", VERSION);
        g.writeStringField("channels", "40202122233038606100");
        g.writeStringField("moniker", chain.genesis().validators().get(0).moniker());
        g.writeObjectFieldStart("other");
        g.writeStringField("tx_index", "on");
        g.writeStringField("rpc_address", "tcp://" + host + ":" + port.getAsInt());
        g.writeEndObject();
        g.writeEndObject();
        g.writeObjectFieldStart("sync_info");
        syncPoint(g, "latest", head);
        syncPoint(g, "earliest", Math.min(1, head));
        g.writeBooleanField("catching_up", false);
        g.writeEndObject();
        Validator v = chain.genesis().validators().get(0);
        g.writeObjectFieldStart("validator_info");
        g.writeStringField("address", v.addressHex());
        CometJson.pubKey(g, v);
        g.writeStringField("voting_power", "1");
        g.writeEndObject();
        g.writeEndObject();
    }

    private void syncPoint(JsonOut g, String which, long h) {
        g.writeStringField(which + "_block_hash", h < 1 ? "" : Hex.upper(chain.blockHash(h)));
        g.writeStringField(which + "_app_hash", h < 1 ? "" : Hex.upper(chain.appHash(h)));
        g.writeStringField(which + "_block_height", Long.toString(h));
        g.writeStringField(
                which + "_block_time", h < 1 ? "0001-01-01T00:00:00Z" : Times.rfc3339Nano(chain.blockTimeNanos(h)));
    }

    /** {@code /blockchain}: block metas from maxHeight down to minHeight, at most 20 (CometBFT's filterMinMax). */
    private Future<Json.Body> blockchain(Map<String, String> p) {
        long latest = chain.head();
        long min = p.get("minHeight") == null ? 0 : parseLong(p.get("minHeight"), "minHeight");
        long max = p.get("maxHeight") == null ? 0 : parseLong(p.get("maxHeight"), "maxHeight");
        if (min < 0 || max < 0) throw CometRpcServer.internal("heights must be non-negative");
        if (min == 0) min = 1;
        if (max == 0) max = latest;
        max = Math.min(latest, max);
        min = Math.max(min, max - BLOCKCHAIN_LIMIT + 1);
        if (min > max) throw CometRpcServer.internal("min height " + min + " can't be greater than max height " + max);
        List<Block> blocks = new ArrayList<>();
        for (long h = max; h >= min; h--) blocks.add(chain.block(h));
        return done(g -> {
            g.writeStartObject();
            g.writeStringField("last_height", Long.toString(latest));
            g.writeArrayFieldStart("block_metas");
            for (Block b : blocks) {
                g.writeStartObject();
                g.writeFieldName("block_id");
                BlockJson.COMET.blockId(g, b.hash, b.partsHash);
                g.writeStringField("block_size", Long.toString(b.size));
                g.writeFieldName("header");
                BlockJson.COMET.header(g, b, chain.spec().chainId(), null);
                g.writeStringField("num_txs", Integer.toString(b.txs.size()));
                g.writeEndObject();
            }
            g.writeEndArray();
            g.writeEndObject();
        });
    }

    private Future<Json.Body> validators(Map<String, String> p) {
        long h = height(p.get("height"));
        List<Validator> vals = chain.genesis().validators();
        int perPage = perPage(p.get("per_page"));
        int page = page(p.get("page"), vals.size(), perPage);
        List<Validator> slice =
                vals.subList(Math.min(vals.size(), (page - 1) * perPage), Math.min(vals.size(), page * perPage));
        return done(g -> {
            g.writeStartObject();
            g.writeStringField("block_height", Long.toString(h));
            g.writeArrayFieldStart("validators");
            for (Validator v : slice) {
                g.writeStartObject();
                g.writeStringField("address", v.addressHex());
                CometJson.pubKey(g, v);
                g.writeStringField("voting_power", "1");
                g.writeStringField("proposer_priority", "0");
                g.writeEndObject();
            }
            g.writeEndArray();
            g.writeStringField("count", Integer.toString(slice.size()));
            g.writeStringField("total", Integer.toString(vals.size()));
            g.writeEndObject();
        });
    }

    /** CometBFT's per_page: default 30, at most 100. */
    static int perPage(String s) {
        if (s == null || s.isEmpty()) return 30;
        long v = parseLong(s, "per_page");
        return v < 1 ? 30 : (int) Math.min(100, v);
    }

    /** CometBFT's page: default 1, within [1, pages]. */
    static int page(String s, int total, int perPage) {
        int pages = Math.max(1, (total + perPage - 1) / perPage);
        if (s == null || s.isEmpty()) return 1;
        long v = parseLong(s, "page");
        if (v < 1 || v > pages)
            throw CometRpcServer.internal("page should be within [1, " + pages + "] range, given " + v);
        return (int) v;
    }

    /** {@code /tx?hash=0x…} (URI form, hex) or base64 (JSON-RPC form). */
    private Future<Json.Body> tx(Map<String, String> p) {
        String s = p.get("hash");
        if (s == null || s.isEmpty()) throw CometRpcServer.invalidParams("missing hash");
        byte[] hash = decodeHash(s);
        DevnetChain.TxRef ref = hash == null ? null : chain.findTx(hash);
        if (ref == null || !ref.tx().hash.equals(Hex.upper(hash)))
            throw CometRpcServer.internal("tx (" + (hash == null ? s : Hex.upper(hash)) + ") not found");
        Block b = ref.block();
        Tx tx = ref.tx();
        return done(g -> CometJson.resultTx(g, b, tx));
    }

    static byte[] decodeHash(String s) {
        String t = s.trim();
        try {
            if (t.startsWith("0x") || t.startsWith("0X") || (t.length() == 64 && t.matches("[0-9a-fA-F]+"))) {
                byte[] b = Hex.decode(t);
                return b.length == 32 ? b : null;
            }
            byte[] b = Base64.getDecoder().decode(t);
            return b.length == 32 ? b : null;
        } catch (IllegalArgumentException e) {
            return null;
        }
    }
}
