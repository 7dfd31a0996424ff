package dev.weft.api;

import dev.weft.bus.BusError;
import dev.weft.chain.AccountAddress;
import dev.weft.chain.Bech32;
import dev.weft.chain.Hex;
import dev.weft.runtime.NodeContext;
import dev.weft.store.AccountTxsStore;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code GET /v1/accounts/{address}/txs}: one list of an account's txs over every indexed chain, newest first (block
 * time, then chain id, then the chain's own order), each with its {@code chain_id}. The address is bech32 of any prefix
 * or hex: the same key bytes on every chain. Pages are a keyset per chain (the cursor holds, per chain, the sequence
 * its page stopped at), so a deep page costs what the first does and a tx indexed meanwhile never shifts a page.
 */
public final class CrossChainAccountApi implements ApiModule {
    static final int DEFAULT_LIMIT = 20;
    static final int MAX_LIMIT = 100;
    private static final Set<String> PARAMS = Set.of("limit", "cursor");

    private final NodeContext ctx;

    public CrossChainAccountApi(NodeContext ctx) {
        this.ctx = ctx;
    }

    @Override
    public void mount(Router router) {
        router.get("/v1/accounts/:address/txs").handler(this::txs);
    }

    @Override
    public String openApiFragment() {
        return "openapi/cross-chain-accounts.json";
    }

    private record Hit(String chainId, AccountTxsStore.Item item) {}

    private void txs(RoutingContext rc) {
        byte[] address;
        int limit;
        Map<String, Long> after;
        try {
            for (String name : rc.queryParams().names())
                if (!PARAMS.contains(name)) throw BusError.badRequest("unknown parameter " + name);
            address = key(rc.pathParam("address"));
            limit = limit(rc.queryParams().get("limit"));
            after = cursor(rc.queryParams().get("cursor"));
        } catch (BusError e) {
            Responses.error(rc, e);
            return;
        }
        List<NodeContext> chains = ctx.chains().all();
        List<Future<List<Hit>>> reads = new ArrayList<>();
        for (NodeContext chain : chains) {
            String id = chain.config().chain().chainId();
            long before = after.getOrDefault(id, Long.MAX_VALUE);
            reads.add(new AccountTxsStore(chain.chains().readPool(id).orElse(chain.pool()))
                    .newest(address, before, limit + 1)
                    .map(items -> items.stream().map(i -> new Hit(id, i)).toList()));
        }
        Responses.reply(rc, Future.all(reads).map(x -> page(chains, reads, after, limit)));
    }

    private JsonObject page(
            List<NodeContext> chains, List<Future<List<Hit>>> reads, Map<String, Long> after, int limit) {
        List<Hit> all = new ArrayList<>();
        for (Future<List<Hit>> f : reads) all.addAll(f.result());
        all.sort(Comparator.comparingLong((Hit h) -> -h.item().timeNs())
                .thenComparing(Hit::chainId)
                .thenComparingLong(h -> -h.item().sequence()));
        List<Hit> taken = all.subList(0, Math.min(limit, all.size()));
        Map<String, Long> next = new LinkedHashMap<>(after);
        JsonArray txs = new JsonArray();
        for (Hit h : taken) {
            AccountTxsStore.Item i = h.item();
            next.put(h.chainId(), i.sequence());
            txs.add(new JsonObject()
                    .put("chain_id", h.chainId())
                    .put("height", String.valueOf(i.height()))
                    .put("txhash", Hex.upper(i.hash()))
                    .put("timestamp", NftJson.timestamp(i.timeNs()))
                    .put("code", i.code())
                    .put("is_signer", i.signer()));
        }
        boolean more = all.size() > taken.size();
        return new JsonObject().put("txs", txs).put("next", more ? encode(next) : null);
    }

    /** Bech32 of any prefix (the registry's chains use several) or hex of 20 or 32 bytes. */
    static byte[] key(String s) {
        try {
            String t = s.trim();
            if (!t.startsWith("0x") && !t.startsWith("0X") && t.indexOf('1') > 0 && !t.matches("[0-9a-fA-F]+")) {
                return AccountAddress.of(Bech32.decode(t).data()).bytes();
            }
            return AccountAddress.parse(t, "init").bytes();
        } catch (RuntimeException e) {
            throw BusError.badRequest("invalid address: " + e.getMessage());
        }
    }

    static int limit(String s) {
        if (s == null) return DEFAULT_LIMIT;
        try {
            int n = Integer.parseInt(s.trim());
            if (n >= 1 && n <= MAX_LIMIT) return n;
        } catch (NumberFormatException e) {
            // below
        }
        throw BusError.badRequest("limit must be a whole number from 1 to " + MAX_LIMIT);
    }

    private Map<String, Long> cursor(String s) {
        Map<String, Long> out = new LinkedHashMap<>();
        if (s == null) return out;
        try {
            JsonObject o = new JsonObject(new String(Base64.getUrlDecoder().decode(s), StandardCharsets.UTF_8));
            for (String chain : o.fieldNames()) {
                if (ctx.chains().get(chain).isEmpty()) throw new IllegalArgumentException(chain);
                out.put(chain, o.getLong(chain));
            }
            return out;
        } catch (RuntimeException e) {
            throw BusError.badRequest("invalid cursor: pass the next of a previous page as it is");
        }
    }

    private static String encode(Map<String, Long> next) {
        return Base64.getUrlEncoder()
                .withoutPadding()
                .encodeToString(
                        new JsonObject(new LinkedHashMap<>(next)).encode().getBytes(StandardCharsets.UTF_8));
    }
}
