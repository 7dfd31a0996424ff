package dev.weft.devnet.evm;

import com.fasterxml.jackson.databind.JsonNode;
import dev.weft.devnet.gen.Block;
import dev.weft.devnet.gen.DevnetChain;
import dev.weft.devnet.gen.EvmLog;
import dev.weft.devnet.gen.Tx;
import dev.weft.devnet.http.Json;
import dev.weft.devnet.http.JsonRpc;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.Function;

/**
 * {@code eth_getLogs} with minievm's filter rules (initia-labs/minievm {@code jsonrpc/namespaces/eth/filters}):
 * {@code blockHash}, or {@code fromBlock}/{@code toBlock} (default latest); {@code address} one or an array (at most
 * 100, {@code exceed max addresses}); {@code topics} up to four positions ({@code exceed max topics}), each null (any),
 * a topic, or an array of alternatives; from above to is {@code invalid block range params}; a range over
 * {@code maxRange} blocks is {@code block range exceeded N}. Logs come in block order with their block-wide
 * {@code logIndex}, exactly as the receipts show them. Runs on a worker thread.
 */
final class EthLogs {
    private static final int MAX_TOPICS = 4;
    private static final int MAX_ADDRESSES = 100;

    private final DevnetChain chain;
    private final int maxRange;
    private final Function<JsonNode, Long> height;

    EthLogs(DevnetChain chain, int maxRange, Function<JsonNode, Long> height) {
        this.chain = chain;
        this.maxRange = maxRange;
        this.height = height;
    }

    Json.Body logs(JsonNode crit) {
        if (crit == null || !crit.isObject())
            throw new JsonRpc.Error(-32602, "invalid argument 0: expected a filter object", null);
        Set<String> addresses = addresses(crit.get("address"));
        List<Set<String>> topics = topics(crit.get("topics"));
        List<Block> blocks = new ArrayList<>();
        if (crit.hasNonNull("blockHash")) {
            String hash = crit.get("blockHash").asText("");
            if (!hash.startsWith("0x") || !dev.weft.chain.Hex.isHex(hash, 32))
                throw new JsonRpc.Error(-32602, "invalid argument 0: invalid blockHash", null);
            Block b = chain.findBlock(dev.weft.chain.Hex.decode(hash));
            if (b == null) throw new JsonRpc.Error(-32000, "unknown block", null);
            blocks.add(b);
        } else {
            long head = chain.head();
            long from = crit.hasNonNull("fromBlock") ? height.apply(crit.get("fromBlock")) : head;
            long to = crit.hasNonNull("toBlock") ? height.apply(crit.get("toBlock")) : head;
            if (from > to) throw new JsonRpc.Error(-32000, "invalid block range params", null);
            if (to - from + 1 > maxRange) throw new JsonRpc.Error(-32000, "block range exceeded " + maxRange, null);
            for (long h = Math.max(1, from); h <= Math.min(to, head); h++)
                if (chain.txCount(h) > 0) blocks.add(chain.block(h));
        }
        return g -> {
            g.writeStartArray();
            for (Block b : blocks) {
                for (int i = 0; i < b.evmTxs.size(); i++) {
                    Tx tx = b.evmTxs.get(i);
                    int logIndex = b.firstLogIndex[i];
                    for (EvmLog l : tx.evm.logs()) {
                        if (matches(l, addresses, topics)) EthJson.log(g, l, b, tx.evm.hash(), i, logIndex);
                        logIndex++;
                    }
                }
            }
            g.writeEndArray();
        };
    }

    private static boolean matches(EvmLog l, Set<String> addresses, List<Set<String>> topics) {
        if (!addresses.isEmpty() && !addresses.contains(l.address())) return false;
        if (topics.size() > l.topics().size()) {
            for (int i = l.topics().size(); i < topics.size(); i++) if (topics.get(i) != null) return false;
        }
        for (int i = 0; i < topics.size() && i < l.topics().size(); i++) {
            Set<String> wanted = topics.get(i);
            if (wanted != null && !wanted.contains(l.topics().get(i))) return false;
        }
        return true;
    }

    private static Set<String> addresses(JsonNode a) {
        Set<String> out = new HashSet<>();
        if (a == null || a.isNull()) return out;
        List<JsonNode> items = new ArrayList<>();
        if (a.isArray()) a.forEach(items::add);
        else items.add(a);
        if (items.size() > MAX_ADDRESSES) throw new JsonRpc.Error(-32000, "exceed max addresses", null);
        for (JsonNode n : items) {
            String s = n.asText("");
            if (!s.startsWith("0x") || !dev.weft.chain.Hex.isHex(s, 20))
                throw new JsonRpc.Error(-32602, "invalid argument 0: invalid address " + s, null);
            out.add(s.toLowerCase(Locale.ROOT));
        }
        return out;
    }

    /** Per position: null = any topic, else the alternatives. */
    private static List<Set<String>> topics(JsonNode t) {
        List<Set<String>> out = new ArrayList<>();
        if (t == null || t.isNull()) return out;
        if (!t.isArray()) throw new JsonRpc.Error(-32602, "invalid argument 0: topics must be an array", null);
        if (t.size() > MAX_TOPICS) throw new JsonRpc.Error(-32000, "exceed max topics", null);
        for (JsonNode pos : t) {
            if (pos.isNull() || (pos.isArray() && pos.isEmpty())) {
                out.add(null);
                continue;
            }
            Set<String> alternatives = new HashSet<>();
            if (pos.isArray()) pos.forEach(x -> alternatives.add(topic(x)));
            else alternatives.add(topic(pos));
            out.add(alternatives);
        }
        return out;
    }

    private static String topic(JsonNode n) {
        String s = n.isNull() ? "" : n.asText("");
        if (!s.startsWith("0x") || !dev.weft.chain.Hex.isHex(s, 32))
            throw new JsonRpc.Error(-32602, "invalid argument 0: invalid topic " + s, null);
        return s.toLowerCase(Locale.ROOT);
    }
}
