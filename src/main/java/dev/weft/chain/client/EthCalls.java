package dev.weft.chain.client;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.weft.chain.AccountAddress;
import dev.weft.chain.Hashes;
import dev.weft.chain.Hex;
import io.vertx.core.Future;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Contract reads through {@code eth_call} at a height: ERC-721 {@code name()} and {@code tokenURI(id)}, ERC-20
 * {@code balanceOf(account)}; the ABI words they take and return, and how a revert is told from a node failure.
 */
public final class EthCalls {
    public static final String NAME = selector("name()");
    public static final String TOKEN_URI = selector("tokenURI(uint256)");
    public static final String BALANCE_OF = selector("balanceOf(address)");

    private EthCalls() {}

    public static String selector(String signature) {
        return "0x" + Hex.lower(Hashes.keccak256(signature)).substring(0, 8);
    }

    /** {@code eth_call [{to, data}, height]}. */
    public static EvmRpcClient.Request call(AccountAddress to, String data, long height) {
        var tx = JsonNodeFactory.instance.objectNode().put("to", to.hex()).put("data", data);
        return EvmRpcClient.Request.of("eth_call", tx, EvmRpcClient.quantity(height));
    }

    public static String tokenUri(BigInteger tokenId) {
        return TOKEN_URI + word(tokenId);
    }

    public static String balanceOf(AccountAddress account) {
        return BALANCE_OF + "0".repeat(24) + Hex.lower(account.bytes());
    }

    public static String word(BigInteger v) {
        String h = v.toString(16);
        return "0".repeat(Math.max(0, 64 - h.length())) + h;
    }

    /** Whether a JSON-RPC error is the call reverting (the contract said no), not the node failing. */
    public static boolean reverted(JsonNode error) {
        if (error == null) return false;
        return error.path("code").asInt() == 3
                || error.path("message").asText("").toLowerCase(Locale.ROOT).contains("revert");
    }

    /** An ABI-encoded {@code string} return value; null when the data is not one. */
    public static String decodeString(JsonNode result) {
        if (result == null || !result.isTextual()) return null;
        String h = Hex.strip(result.asText());
        try {
            if (h.length() < 128 || h.length() % 2 != 0) return null;
            int offset = new BigInteger(h.substring(0, 64), 16).intValueExact();
            if (offset * 2 + 64 > h.length()) return null;
            int len = new BigInteger(h.substring(offset * 2, offset * 2 + 64), 16).intValueExact();
            int start = offset * 2 + 64;
            if (len < 0 || start + len * 2L > h.length()) return null;
            return new String(Hex.decode(h.substring(start, start + len * 2)), StandardCharsets.UTF_8);
        } catch (ArithmeticException | IllegalArgumentException e) {
            return null;
        }
    }

    /** An ABI-encoded {@code uint256}; null when the data is not one word. */
    public static BigInteger decodeUint(JsonNode result) {
        if (result == null || !result.isTextual()) return null;
        String h = Hex.strip(result.asText());
        if (h.isEmpty() || h.length() > 64) return null;
        try {
            return new BigInteger(h, 16);
        } catch (NumberFormatException e) {
            return null;
        }
    }

    /**
     * Sends requests as batches of at most {@code size}, {@code concurrency} batches at a time; results in request
     * order. Fails when any batch fails (per-call errors are results, not failures).
     */
    public static Future<List<EvmRpcClient.Result>> batched(
            EvmRpcClient client, List<EvmRpcClient.Request> requests, int size, int concurrency) {
        int chunks = (requests.size() + size - 1) / size;
        EvmRpcClient.Result[] out = new EvmRpcClient.Result[requests.size()];
        java.util.concurrent.atomic.AtomicInteger next = new java.util.concurrent.atomic.AtomicInteger();
        List<Future<Void>> lanes = new ArrayList<>();
        for (int i = 0; i < Math.min(Math.max(1, concurrency), chunks); i++)
            lanes.add(lane(client, requests, size, chunks, next, out));
        return Future.all(lanes).map(v -> List.of(out));
    }

    private static Future<Void> lane(
            EvmRpcClient client,
            List<EvmRpcClient.Request> requests,
            int size,
            int chunks,
            java.util.concurrent.atomic.AtomicInteger next,
            EvmRpcClient.Result[] out) {
        int chunk = next.getAndIncrement();
        if (chunk >= chunks) return Future.succeededFuture();
        int from = chunk * size;
        List<EvmRpcClient.Request> part = requests.subList(from, Math.min(requests.size(), from + size));
        return client.batch(part).compose(r -> {
            for (int i = 0; i < r.size(); i++) out[from + i] = r.get(i);
            return lane(client, requests, size, chunks, next, out);
        });
    }
}
