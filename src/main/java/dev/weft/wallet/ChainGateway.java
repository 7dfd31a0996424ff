package dev.weft.wallet;

import com.fasterxml.jackson.databind.JsonNode;
import dev.weft.chain.client.CosmosRestClient;
import dev.weft.chain.client.EvmRpcClient;
import dev.weft.chain.client.NodeHttp;
import dev.weft.config.NodeClientOptions;
import dev.weft.track.TrackChains;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * The node requests the wallet endpoints make on a user's behalf: CometBFT {@code broadcast_tx_sync}, EVM
 * {@code eth_sendRawTransaction}, {@code eth_getBalance} and ERC-20 {@code balanceOf}, and the REST bank module's
 * balances. One client per chain and API, built on first use from {@link TrackChains}' URLs, each with a small bound
 * on requests in flight, a short timeout and a single attempt (a broadcast is never repeated behind the user's back).
 */
public final class ChainGateway {
    private static final NodeClientOptions OPTIONS = new NodeClientOptions(
            8, Duration.ofSeconds(10), 1, Duration.ofMillis(200), Duration.ofSeconds(1), 3, Duration.ofSeconds(30));

    private final Vertx vertx;
    private final TrackChains chains;
    private final Map<String, NodeHttp> rpc = new HashMap<>();
    private final Map<String, EvmRpcClient> evm = new HashMap<>();
    private final Map<String, CosmosRestClient> rest = new HashMap<>();

    public ChainGateway(Vertx vertx, TrackChains chains) {
        this.vertx = vertx;
        this.chains = chains;
    }

    public TrackChains chains() {
        return chains;
    }

    /** The CheckTx result of {@code broadcast_tx_sync}: {@code {code, data, log, codespace, hash}}. */
    public Future<JsonObject> broadcastSync(String chainId, String txBase64) {
        NodeHttp http;
        synchronized (this) {
            http = rpc.computeIfAbsent(
                    chainId,
                    id -> urls(chains.rpcUrls(id)) == null
                            ? null
                            : new NodeHttp(vertx, "rpc", chains.rpcUrls(id), OPTIONS));
        }
        if (http == null) return Future.failedFuture(new IllegalStateException("no RPC URL for " + chainId));
        JsonObject req = new JsonObject()
                .put("jsonrpc", "2.0")
                .put("id", 1)
                .put("method", "broadcast_tx_sync")
                .put("params", new JsonObject().put("tx", txBase64));
        return http.post("/", req.toBuffer(), rpcResult());
    }

    /** {@code eth_sendRawTransaction}: the tx hash. */
    public Future<String> sendRawTransaction(String chainId, String rawHex) {
        return evm(chainId)
                .compose(c -> c.call("eth_sendRawTransaction", EvmRpcClient.params(rawHex)))
                .map(JsonNode::asText);
    }

    /** {@code eth_getBalance(address, latest)} in wei, as a decimal string. */
    public Future<String> nativeBalance(String chainId, String address) {
        return evm(chainId)
                .compose(c -> c.call("eth_getBalance", EvmRpcClient.params(address, "latest")))
                .map(n -> quantity(n.asText()));
    }

    /** ERC-20 {@code balanceOf(address)} at the latest block, as a decimal string. */
    public Future<String> erc20Balance(String chainId, String token, String address) {
        String data = "0x70a08231" + "0".repeat(24) + address.substring(2).toLowerCase(java.util.Locale.ROOT);
        JsonNode call = com.fasterxml.jackson.databind.node.JsonNodeFactory.instance
                .objectNode()
                .put("to", token)
                .put("data", data);
        return evm(chainId)
                .compose(c -> c.call("eth_call", EvmRpcClient.params(call, "latest")))
                .map(n -> quantity(n.asText()));
    }

    /** Every bank balance of an account (one page of at most 200 denoms): denom → amount. */
    public Future<Map<String, String>> bankBalances(String chainId, String address) {
        CosmosRestClient c;
        synchronized (this) {
            c = rest.computeIfAbsent(
                    chainId,
                    id -> urls(chains.restUrls(id)) == null
                            ? null
                            : new CosmosRestClient(vertx, chains.restUrls(id), OPTIONS));
        }
        if (c == null) return Future.failedFuture(new IllegalStateException("no REST URL for " + chainId));
        return c.get("/cosmos/bank/v1beta1/balances/" + address + "?pagination.limit=200", body -> {
            Map<String, String> out = new HashMap<>();
            for (JsonNode b : body.path("balances"))
                out.put(b.path("denom").asText(), b.path("amount").asText("0"));
            return out;
        });
    }

    private synchronized Future<EvmRpcClient> evm(String chainId) {
        EvmRpcClient c = evm.computeIfAbsent(
                chainId,
                id -> urls(chains.evmEndpoints(id)) == null
                        ? null
                        : new EvmRpcClient(vertx, chains.evmEndpoints(id), OPTIONS));
        return c == null
                ? Future.failedFuture(new IllegalStateException("no EVM JSON-RPC URL for " + chainId))
                : Future.succeededFuture(c);
    }

    private static List<String> urls(List<String> urls) {
        return urls.isEmpty() ? null : urls;
    }

    private static Function<Buffer, JsonObject> rpcResult() {
        return buf -> {
            JsonObject env = buf.toJsonObject();
            JsonObject err = env.getJsonObject("error");
            if (err != null)
                throw new IllegalStateException("node error " + err.getValue("code") + ": "
                        + err.getString("message", "") + " " + err.getString("data", ""));
            JsonObject result = env.getJsonObject("result");
            if (result == null) throw new IllegalStateException("node answer without result");
            return result;
        };
    }

    static String quantity(String hex) {
        String h = hex.startsWith("0x") ? hex.substring(2) : hex;
        return h.isEmpty() ? "0" : new java.math.BigInteger(h, 16).toString();
    }

    public Future<Void> close() {
        List<Future<Void>> closing = new ArrayList<>();
        rpc.values().forEach(h -> closing.add(h.close()));
        evm.values().forEach(h -> closing.add(h.close()));
        rest.values().forEach(h -> closing.add(h.close()));
        return Future.all(closing).mapEmpty();
    }
}
