package dev.weft.wallet;

import dev.weft.bus.BusError;
import dev.weft.chain.Hex;
import dev.weft.route.registry.Chain;
import dev.weft.track.TrackService;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import java.util.Base64;
import java.util.Locale;

/**
 * {@code POST /v2/tx/submit} as Skip: {@code {tx, chain_id}} → {@code {tx_hash, explorer_link}}. A Cosmos tx (base64
 * TxRaw) goes to the chain's RPC {@code broadcast_tx_sync}, an EVM tx (signed raw bytes, 0x hex or base64) to
 * {@code eth_sendRawTransaction}; then it is registered for tracking, as {@code /v2/tx/track} would. On a Cosmos chain
 * with an EVM (a minievm rollup) an EVM tx is told from a TxRaw by its first byte (a typed-tx type 1 or 2, or an RLP
 * list: a TxRaw starts with a protobuf field tag) and goes to the chain's JSON-RPC too; it is answered with its EVM
 * hash and tracked under it (the tracker finds its Cosmos hash through minievm's {@code cosmos_cosmosTxHashByTxHash}),
 * so {@code /v2/tx/status} answers for the hash given back. A tx the node refuses in CheckTx is a
 * 400 carrying the node's code, codespace and log.
 */
public final class SubmitService {
    private final ChainGateway gateway;
    private final TrackService tracking;

    public SubmitService(ChainGateway gateway, TrackService tracking) {
        this.gateway = gateway;
        this.tracking = tracking;
    }

    public Future<JsonObject> submit(JsonObject body) {
        String chainId = text(body, "chain_id");
        String tx = text(body, "tx");
        Chain chain = gateway.chains().registry().chain(chainId);
        if (chain == null) throw BusError.notFound("chain ID not supported");
        if (chain.isEvmChain() || (chain.hasEvm() && isEvmTx(tx))) {
            String raw = tx.startsWith("0x") ? tx : "0x" + Hex.lower(decode(tx));
            if (!Hex.isHex(raw, (raw.length() - 2) / 2))
                throw BusError.badRequest("tx is not a signed EVM transaction in hex or base64");
            Future<String> hash = gateway.sendRawTransaction(chainId, raw)
                    .recover(e -> Future.failedFuture(refused(chainId, e)))
                    .map(h -> h.toLowerCase(Locale.ROOT));
            if (!chain.isEvmChain()) {
                return hash.compose(h -> register(chainId, h)
                        .map(r -> r.put("tx_hash", h)
                                .put("explorer_link", gateway.chains().explorerLink(chainId, h))));
            }
            return hash.compose(h -> register(chainId, h));
        }
        decode(tx);
        return gateway.broadcastSync(chainId, tx)
                .recover(e -> Future.failedFuture(refused(chainId, e)))
                .compose(r -> {
                    int code = r.getInteger("code", 0);
                    if (code != 0) {
                        String log = r.getString("log", "");
                        String codespace = r.getString("codespace", "");
                        throw new BusError(
                                400,
                                "tx rejected by " + chainId + ": code " + code
                                        + (codespace.isEmpty() ? "" : " (" + codespace + ")") + ": " + log,
                                new io.vertx.core.json.JsonArray()
                                        .add(BusError.errorInfo(
                                                "CHECK_TX_FAILED",
                                                new JsonObject()
                                                        .put("code", Integer.toString(code))
                                                        .put("codespace", codespace)
                                                        .put("log", log))));
                    }
                    return register(chainId, r.getString("hash"));
                });
    }

    /** Registers the broadcast tx; on a chain the tracker does not follow, the hash and link alone. */
    private Future<JsonObject> register(String chainId, String hash) {
        try {
            return tracking.track(new JsonObject().put("tx_hash", hash).put("chain_id", chainId))
                    .recover(Future::failedFuture);
        } catch (BusError e) {
            return Future.succeededFuture(new JsonObject()
                    .put("tx_hash", hash)
                    .put("explorer_link", gateway.chains().explorerLink(chainId, hash)));
        }
    }

    private static RuntimeException refused(String chainId, Throwable e) {
        if (e instanceof BusError r) return r;
        String m = e.getMessage() == null ? "" : e.getMessage();
        if (e instanceof dev.weft.chain.client.NodeException n
                && n.kind() == dev.weft.chain.client.NodeException.Kind.RPC) {
            return BusError.badRequest("tx rejected by " + chainId + ": " + m);
        }
        if (m.contains("node error"))
            return BusError.badRequest("tx rejected by " + chainId + ": "
                    + m.substring(m.indexOf("node error") + 11).trim());
        return new BusError(503, "the node of " + chainId + " did not answer the broadcast");
    }

    /** Whether a tx (0x hex or base64) is a raw EVM tx: typed (first byte 1 or 2) or legacy (an RLP list, 0xc0 and up). */
    private static boolean isEvmTx(String tx) {
        if (tx.startsWith("0x")) return true;
        byte[] b;
        try {
            b = Base64.getDecoder().decode(tx);
        } catch (IllegalArgumentException e) {
            return false;
        }
        return b.length > 0 && (b[0] == 1 || b[0] == 2 || (b[0] & 0xff) >= 0xc0);
    }

    private static byte[] decode(String tx) {
        try {
            byte[] b = Base64.getDecoder().decode(tx);
            if (b.length == 0) throw new IllegalArgumentException();
            return b;
        } catch (IllegalArgumentException e) {
            throw BusError.badRequest("tx must be the signed transaction in base64");
        }
    }

    private static String text(JsonObject body, String name) {
        Object v = body.getValue(name);
        if (!(v instanceof String s) || s.isBlank()) throw BusError.badRequest(name + " is required");
        return s.trim();
    }
}
