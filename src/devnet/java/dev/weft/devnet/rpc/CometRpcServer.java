package dev.weft.devnet.rpc;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.weft.devnet.fault.FaultInjector;
import dev.weft.devnet.gen.DevnetChain;
import dev.weft.devnet.http.DevnetServer;
import dev.weft.devnet.http.Json;
import dev.weft.devnet.http.JsonRpc;
import dev.weft.devnet.http.Reply;
import dev.weft.devnet.mempool.Broadcaster;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpMethod;
import java.io.IOException;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * The CometBFT RPC of a simulated node: the URI form ({@code GET /block?height=5}, JSON-RPC id -1), the JSON-RPC
 * form ({@code POST /} with a method name, or a batch of them) and the {@code /websocket} endpoint (the same calls,
 * and event subscriptions). Errors are JSON-RPC errors ({@code -32603 Internal error} with the reason
 * in {@code data}, as CometBFT words them), HTTP 500 in the URI form and 200 in the JSON-RPC form.
 */
public final class CometRpcServer extends DevnetServer {
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final List<String> ROUTES = List.of(
            "status",
            "block",
            "block_results",
            "blockchain",
            "validators",
            "tx",
            "tx_search",
            "health",
            "broadcast_tx_sync",
            "broadcast_tx_async",
            "broadcast_tx_commit",
            "abci_info",
            "abci_query",
            "header",
            "commit",
            "block_search",
            "genesis",
            "num_unconfirmed_txs");
    /** Most requests one batch may hold (CometBFT's {@code max_request_batch_size} is unlimited by default; a public port is not). */
    static final int MAX_BATCH = 100;
    /** Positional parameter names, for JSON-RPC calls with array params. */
    private static final Map<String, List<String>> POSITIONAL = Map.ofEntries(
            Map.entry("block", List.of("height")),
            Map.entry("block_results", List.of("height")),
            Map.entry("blockchain", List.of("minHeight", "maxHeight")),
            Map.entry("validators", List.of("height", "page", "per_page")),
            Map.entry("tx", List.of("hash", "prove")),
            Map.entry("tx_search", List.of("query", "prove", "page", "per_page", "order_by")),
            Map.entry("broadcast_tx_sync", List.of("tx")),
            Map.entry("broadcast_tx_async", List.of("tx")),
            Map.entry("broadcast_tx_commit", List.of("tx")),
            Map.entry("abci_query", List.of("path", "data", "height", "prove")),
            Map.entry("header", List.of("height")),
            Map.entry("commit", List.of("height")),
            Map.entry("block_search", List.of("query", "page", "per_page", "order_by")));

    private final CometMethods methods;
    private final java.util.Set<CometWebSocket> sockets = new java.util.LinkedHashSet<>();
    private final String chainId;

    public CometRpcServer(Vertx vertx, FaultInjector faults, DevnetChain chain, String host, int txSearchWindow) {
        this(vertx, faults, chain, host, txSearchWindow, null);
    }

    /** @param broadcaster where broadcast txs go; null when the chain takes none */
    public CometRpcServer(
            Vertx vertx,
            FaultInjector faults,
            DevnetChain chain,
            String host,
            int txSearchWindow,
            Broadcaster broadcaster) {
        super(vertx, faults);
        this.methods = new CometMethods(vertx, chain, host, txSearchWindow, this::port, broadcaster);
        this.chainId = chain.spec().chainId();
        chain.onBlock(b -> List.copyOf(sockets).forEach(s -> s.publish(b)));
    }

    @Override
    protected boolean servesWebSocket(String path) {
        return path.equals("/websocket");
    }

    @Override
    protected void onWebSocket(io.vertx.core.http.ServerWebSocket ws) {
        CometWebSocket client = new CometWebSocket(ws, this::call, chainId);
        sockets.add(client);
        ws.closeHandler(x -> sockets.remove(client));
    }

    @Override
    protected Future<Reply> handle(Request r) {
        String path = r.path();
        if (r.method() == HttpMethod.POST) return jsonRpc(r);
        if (path.equals("/"))
            return Future.succeededFuture(Reply.text(
                    200,
                    "Available endpoints (CometBFT 0.38 RPC of the Weft devnet):\n"
                            + String.join(
                                    "\n", ROUTES.stream().map(m -> "/" + m).toList()) + "\n"));
        String method = path.substring(1);
        if (!ROUTES.contains(method)) return Future.succeededFuture(Reply.text(404, "404 page not found\n"));
        Map<String, String> params = new HashMap<>();
        for (Map.Entry<String, String> e : r.params()) params.put(e.getKey(), unquote(e.getValue()));
        return answer(method, params, "-1", true);
    }

    /**
     * A JSON-RPC request, or a batch (an array of requests): the answers in request order, requests without an id
     * (notifications) unanswered, and a batch with one answer answered by that object alone, as CometBFT's
     * {@code writeRPCResponseHTTP} does.
     */
    private Future<Reply> jsonRpc(Request r) {
        JsonNode req;
        try {
            req = MAPPER.readTree(r.body().getBytes());
        } catch (IOException e) {
            return Future.succeededFuture(error("null", -32700, "Parse error. Invalid JSON", e.getMessage(), false));
        }
        if (req == null || !req.isArray()) return call(req);
        if (req.isEmpty())
            return Future.succeededFuture(error("null", -32600, "Invalid Request", "empty batch", false));
        if (req.size() > MAX_BATCH) {
            return Future.succeededFuture(error(
                    "null",
                    -32600,
                    "Invalid Request",
                    "batch request exceeds maximum (" + MAX_BATCH + ") allowed number of requests",
                    false));
        }
        List<Future<Reply>> answers = new java.util.ArrayList<>();
        for (JsonNode one : req) if (one.has("id")) answers.add(call(one));
        if (answers.size() == 1) return answers.get(0);
        return Future.all(answers).map(all -> {
            io.vertx.core.buffer.Buffer out =
                    io.vertx.core.buffer.Buffer.buffer().appendByte((byte) '[');
            for (int i = 0; i < answers.size(); i++) {
                if (i > 0) out.appendByte((byte) ',');
                out.appendBuffer(answers.get(i).result().body());
            }
            return Reply.json(out.appendByte((byte) ']'));
        });
    }

    /** One JSON-RPC request object (over HTTP or the websocket). */
    Future<Reply> call(JsonNode req) {
        if (req == null || !req.isObject())
            return Future.succeededFuture(error("null", -32600, "Invalid Request", null, false));
        String id = req.has("id") ? req.get("id").toString() : "null";
        String method = req.path("method").asText("");
        if (!ROUTES.contains(method)) return Future.succeededFuture(error(id, -32601, "Method not found", null, false));
        Map<String, String> params = new HashMap<>();
        JsonNode p = req.get("params");
        if (p != null && p.isObject()) {
            for (Iterator<Map.Entry<String, JsonNode>> it = p.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                if (!e.getValue().isNull()) params.put(e.getKey(), e.getValue().asText());
            }
        } else if (p != null && p.isArray()) {
            List<String> names = POSITIONAL.getOrDefault(method, List.of());
            for (int i = 0; i < p.size() && i < names.size(); i++)
                if (!p.get(i).isNull()) params.put(names.get(i), p.get(i).asText());
        }
        return answer(method, params, id, false);
    }

    private Future<Reply> answer(String method, Map<String, String> params, String id, boolean uri) {
        Future<Json.Body> result;
        try {
            result = methods.call(method, params);
        } catch (JsonRpc.Error e) {
            return Future.succeededFuture(error(id, e.code, e.getMessage(), e.data, uri));
        }
        return result.map(body -> Reply.json(200, g -> JsonRpc.result(g, id, body)))
                .recover(e -> Future.succeededFuture(
                        e instanceof JsonRpc.Error re
                                ? error(id, re.code, re.getMessage(), re.data, uri)
                                : error(id, -32603, "Internal error", String.valueOf(e.getMessage()), uri)));
    }

    /** HTTP 200 in the JSON-RPC form; in the URI form 400 for bad parameters, else 500. */
    static Reply error(String id, int code, String message, String data, boolean uri) {
        return Reply.json(
                !uri ? 200 : code == -32602 || code == -32600 ? 400 : 500,
                g -> JsonRpc.error(g, id, code, message, data));
    }

    @Override
    protected Reply faultReply() {
        return error("-1", -32603, "Internal error", "devnet: injected fault", true);
    }

    @Override
    protected Reply internalError(Throwable cause) {
        return error("-1", -32603, "Internal error", String.valueOf(cause.getMessage()), true);
    }

    /** URI parameters may be quoted: {@code query="tx.height=5"}. */
    private static String unquote(String v) {
        if (v != null && v.length() >= 2 && v.startsWith("\"") && v.endsWith("\""))
            return v.substring(1, v.length() - 1);
        return v;
    }

    /** CometBFT's {@code -32603 Internal error} with the reason in {@code data}. */
    static JsonRpc.Error internal(String data) {
        return new JsonRpc.Error(-32603, "Internal error", data);
    }

    static JsonRpc.Error invalidParams(String data) {
        return new JsonRpc.Error(-32602, "Invalid params", data);
    }
}
