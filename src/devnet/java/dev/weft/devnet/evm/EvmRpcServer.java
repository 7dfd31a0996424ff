package dev.weft.devnet.evm;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.weft.devnet.fault.FaultInjector;
import dev.weft.devnet.gen.DevnetChain;
import dev.weft.devnet.http.DevnetServer;
import dev.weft.devnet.http.Json;
import dev.weft.devnet.http.JsonRpc;
import dev.weft.devnet.http.Reply;
import dev.weft.devnet.json.JsonOut;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpMethod;
import java.io.IOException;

/**
 * The EVM JSON-RPC of a simulated minievm node: single and batch requests (a batch answers an array in request order),
 * geth's error objects ({@code -32601 the method X does not exist/is not available}, {@code -32602} invalid argument,
 * {@code 3 execution reverted} with revert data), {@code null} for unknown or future blocks and txs.
 */
public final class EvmRpcServer extends DevnetServer {
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private final EthMethods methods;

    /**
     * @param maxLogRange most blocks one {@code eth_getLogs} may span
     * @param sendRaw     queues a raw Ethereum tx and returns its hash ({@code eth_sendRawTransaction}); throws
     *                    {@link dev.weft.devnet.tx.EthRawTx.Invalid} when the node refuses it
     */
    public EvmRpcServer(
            Vertx vertx,
            FaultInjector faults,
            DevnetChain chain,
            int maxLogRange,
            java.util.function.Function<byte[], String> sendRaw) {
        super(vertx, faults);
        this.methods = new EthMethods(chain, maxLogRange, sendRaw);
    }

    @Override
    protected Future<Reply> handle(Request r) {
        if (r.method() != HttpMethod.POST) {
            return Future.succeededFuture(Reply.json(
                    405, g -> error(g, "null", -32600, "invalid request: use POST with a JSON-RPC body", null)));
        }
        JsonNode req;
        try {
            req = MAPPER.readTree(r.body().getBytes());
        } catch (IOException e) {
            return Future.succeededFuture(Reply.json(200, g -> error(g, "null", -32700, "parse error", null)));
        }
        if (req == null || (req.isArray() && req.isEmpty())) {
            return Future.succeededFuture(Reply.json(200, g -> error(g, "null", -32600, "empty batch", null)));
        }
        if (slow(req)) return vertx.executeBlocking(() -> answer(req), false);
        return Future.succeededFuture(answer(req));
    }

    private static boolean slow(JsonNode req) {
        if (req.isArray()) {
            for (JsonNode c : req) if (EthMethods.SLOW.contains(c.path("method").asText())) return true;
            return false;
        }
        return EthMethods.SLOW.contains(req.path("method").asText());
    }

    private Reply answer(JsonNode req) {
        return Reply.json(200, g -> {
            if (req.isArray()) {
                g.writeStartArray();
                for (JsonNode c : req) one(g, c);
                g.writeEndArray();
            } else {
                one(g, req);
            }
        });
    }

    private void one(JsonOut g, JsonNode c) {
        String id = c.has("id") ? c.get("id").toString() : "null";
        if (!c.isObject() || !c.path("method").isTextual()) {
            error(g, id, -32600, "invalid request", null);
            return;
        }
        Json.Body result;
        try {
            result = methods.call(c.get("method").asText(), c.get("params"));
        } catch (JsonRpc.Error e) {
            error(g, id, e.code, e.getMessage(), e.data);
            return;
        } catch (RuntimeException e) { // one bad call must not spoil the rest of a batch
            error(g, id, -32603, String.valueOf(e.getMessage()), null);
            return;
        }
        JsonRpc.result(g, id, result); // every check happened in call(): the result writer only renders
    }

    private static void error(JsonOut g, String id, int code, String message, String data) {
        JsonRpc.error(g, id, code, message, data);
    }

    @Override
    protected Reply faultReply() {
        return Reply.json(500, g -> error(g, "null", -32603, "devnet: injected fault", null));
    }

    @Override
    protected Reply internalError(Throwable cause) {
        return Reply.json(500, g -> error(g, "null", -32603, String.valueOf(cause.getMessage()), null));
    }
}
