package dev.weft.route.live;

import dev.weft.chain.client.NodeHttp;
import dev.weft.route.registry.Registry;
import dev.weft.route.registry.SwapVenue;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.Json;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Reads an InitiaDEX venue (the {@code dex} and {@code stableswap} modules at the venue's module address) through the
 * chain's REST API. Discovery lists every weighted pair ({@code dex::get_all_pairs_by_denom}, pages of 30 keyed by the
 * last pair) and every stableswap pool (the keys of the {@code stableswap::ModuleStore} pools table,
 * {@code /initia/move/v1/accounts/{module}/resources/by_struct_tag} then {@code /initia/move/v1/tables/{handle}/entries});
 * a refresh reads the block height and time, every pair's balances ({@code dex::get_pool_info}) and every pool
 * ({@code stableswap::get_pool}) in batched view calls ({@code /initia/move/v1/view/json/batch}, up to
 * {@value #BATCH} per request), all at one height, and derives the pairs' current weights as {@code dex::get_weight}
 * does. Pools trading an asset the registry does not know are left out.
 */
public final class InitiaDexReader {
    static final int BATCH = 100;
    private static final int PAGE = 30;
    private static final int MAX_PAGES = 200;

    /** A weighted pair as discovered: its LP denom ({@code move/<hex>}), coins, weights schedule and fee rate (18 decimals). */
    record Pair(
            String liquidityToken,
            String coinA,
            String coinB,
            BigInteger beforeA,
            BigInteger beforeB,
            long beforeTime,
            BigInteger afterA,
            BigInteger afterB,
            long afterTime,
            BigDecimal feeRate) {
        String address() {
            return "0x" + liquidityToken.substring("move/".length());
        }
    }

    /** The venue's pairs and stableswap pool addresses. */
    public record Discovery(List<Pair> pairs, List<String> stablePools) {
        public int pools() {
            return pairs.size() + stablePools.size();
        }
    }

    private final NodeHttp rest;
    private final SwapVenue venue;
    private final Registry registry;
    private final Clock clock;
    private long requests;

    public InitiaDexReader(NodeHttp rest, SwapVenue venue, Registry registry, Clock clock) {
        this.rest = rest;
        this.venue = venue;
        this.registry = registry;
        this.clock = clock;
    }

    /** HTTP requests made so far. */
    public long requests() {
        return requests;
    }

    public Future<Discovery> discover() {
        return pairs(new ArrayList<>(), null, 0)
                .compose(pairs -> stablePools().map(pools -> new Discovery(List.copyOf(pairs), pools)));
    }

    private Future<List<Pair>> pairs(List<Pair> acc, Pair after, int page) {
        List<String> args = after == null
                ? List.of("null", "null", "null", Integer.toString(PAGE))
                : List.of(q(after.coinA()), q(after.coinB()), q(after.liquidityToken()), Integer.toString(PAGE));
        return view("dex", "get_all_pairs_by_denom", args).compose(data -> {
            JsonArray list = (JsonArray) Json.decodeValue(data);
            for (int i = 0; i < list.size(); i++) acc.add(pair(list.getJsonObject(i)));
            if (list.size() < PAGE || page + 1 >= MAX_PAGES) return Future.succeededFuture(acc);
            return pairs(acc, acc.get(acc.size() - 1), page + 1);
        });
    }

    private static Pair pair(JsonObject p) {
        JsonObject w = p.getJsonObject("weights");
        JsonObject before = w.getJsonObject("weights_before");
        JsonObject after = w.getJsonObject("weights_after");
        String lp = p.getString("liquidity_token");
        if (!lp.startsWith("move/"))
            throw new IllegalStateException("pair liquidity token " + lp + " is not a move/ denom");
        return new Pair(
                lp,
                p.getString("coin_a"),
                p.getString("coin_b"),
                scaled(before.getString("coin_a_weight")),
                scaled(before.getString("coin_b_weight")),
                Long.parseLong(before.getString("timestamp")),
                scaled(after.getString("coin_a_weight")),
                scaled(after.getString("coin_b_weight")),
                Long.parseLong(after.getString("timestamp")),
                new BigDecimal(p.getString("swap_fee_rate")));
    }

    private Future<List<String>> stablePools() {
        String tag = venue.moduleAddress() + "::stableswap::ModuleStore";
        String path =
                "/initia/move/v1/accounts/" + venue.moduleAddress() + "/resources/by_struct_tag?struct_tag=" + enc(tag);
        requests++;
        return rest.get(path, InitiaDexReader::tableHandle)
                .recover(e -> Future.succeededFuture(null))
                .compose(handle -> handle == null
                        ? Future.succeededFuture(List.of())
                        : tableKeys(handle, new ArrayList<>(), null, 0));
    }

    /** The handle of the pools table in the resource's JSON ({@code move_resource} is itself JSON text). */
    private static String tableHandle(Buffer b) {
        JsonObject resource = b.toJsonObject().getJsonObject("resource");
        JsonObject moved = new JsonObject(resource.getString("move_resource"));
        return moved.getJsonObject("data").getJsonObject("pools").getString("handle");
    }

    private Future<List<String>> tableKeys(String handle, List<String> acc, String key, int page) {
        String path = "/initia/move/v1/tables/" + handle + "/entries?pagination.limit=100"
                + (key == null ? "" : "&pagination.key=" + enc(key));
        requests++;
        return rest.get(path, Buffer::toJsonObject).compose(o -> {
            for (Object e : o.getJsonArray("table_entries", new JsonArray())) {
                acc.add(fullAddress((String) Json.decodeValue(((JsonObject) e).getString("key"))));
            }
            String next = o.getJsonObject("pagination", new JsonObject()).getString("next_key");
            if (next == null || next.isEmpty() || page + 1 >= MAX_PAGES)
                return Future.succeededFuture(List.copyOf(acc));
            return tableKeys(handle, acc, next, page + 1);
        });
    }

    /** Reads the balances of every discovered pool at one height. */
    public Future<VenueState> refresh(Discovery d) {
        List<JsonObject> calls = new ArrayList<>();
        for (Pair p : d.pairs()) calls.add(call("dex", "get_pool_info", List.of(q(p.address()))));
        for (String pool : d.stablePools()) calls.add(call("stableswap", "get_pool", List.of(q(pool))));
        List<Future<List<SwapVenue.Pool>>> chunks = new ArrayList<>();
        long[] heights = {Long.MAX_VALUE, Long.MAX_VALUE};
        int per = BATCH - 2;
        for (int from = 0; from == 0 || from < calls.size(); from += per) {
            int start = from;
            int end = Math.min(calls.size(), from + per);
            JsonArray batch = new JsonArray()
                    .add(call("block", "get_current_block_height", List.of()))
                    .add(call("block", "get_current_block_timestamp", List.of()));
            calls.subList(start, end).forEach(batch::add);
            requests++;
            chunks.add(rest.post(
                            "/initia/move/v1/view/json/batch",
                            Buffer.buffer(
                                    new JsonObject().put("requests", batch).encode()),
                            InitiaDexReader::responses)
                    .map(data -> {
                        long height = Long.parseLong((String) Json.decodeValue(data.get(0)));
                        long time = Long.parseLong((String) Json.decodeValue(data.get(1)));
                        synchronized (heights) {
                            heights[0] = Math.min(heights[0], height);
                            heights[1] = Math.min(heights[1], time);
                        }
                        List<SwapVenue.Pool> pools = new ArrayList<>();
                        for (int i = start; i < end; i++) {
                            SwapVenue.Pool p = i < d.pairs().size()
                                    ? weighted(d.pairs().get(i), data.get(2 + i - start), time)
                                    : stable(d.stablePools().get(i - d.pairs().size()), data.get(2 + i - start));
                            if (p != null) pools.add(p);
                        }
                        return pools;
                    }));
        }
        return Future.all(chunks).map(all -> {
            List<SwapVenue.Pool> pools = new ArrayList<>();
            for (Future<List<SwapVenue.Pool>> f : chunks) pools.addAll(f.result());
            return new VenueState(venue.chainId(), venue.name(), pools, heights[0], heights[1], clock.instant());
        });
    }

    private SwapVenue.Pool weighted(Pair p, String data, long timestamp) {
        if (!known(p.coinA()) || !known(p.coinB())) return null;
        JsonObject info = new JsonObject(data);
        BigInteger[] w = weightsAt(p, timestamp);
        return new SwapVenue.Pool(
                p.liquidityToken(),
                SwapVenue.PoolType.WEIGHTED,
                p.coinA(),
                p.coinB(),
                new BigInteger(info.getString("coin_a_amount")),
                new BigInteger(info.getString("coin_b_amount")),
                p.feeRate(),
                new BigDecimal(w[0], 18),
                new BigDecimal(w[1], 18),
                0);
    }

    private SwapVenue.Pool stable(String address, String data) {
        JsonObject pool = new JsonObject(data);
        JsonArray denoms = pool.getJsonArray("coin_denoms");
        JsonArray balances = pool.getJsonArray("coin_balances");
        // the router quotes two-coin pools (n = 2 in the invariant)
        if (denoms.size() != 2 || !known(denoms.getString(0)) || !known(denoms.getString(1))) return null;
        return new SwapVenue.Pool(
                "move/" + address.substring(2),
                SwapVenue.PoolType.STABLESWAP,
                denoms.getString(0),
                denoms.getString(1),
                new BigInteger(balances.getString(0)),
                new BigInteger(balances.getString(1)),
                new BigDecimal(pool.getString("swap_fee_rate")),
                null,
                null,
                Long.parseLong(pool.getString("current_ann")));
    }

    private boolean known(String denom) {
        return registry.asset(venue.chainId(), denom) != null;
    }

    /** {@code dex::get_weight}: weights move linearly from before to after between their timestamps. */
    static BigInteger[] weightsAt(Pair p, long t) {
        if (t <= p.beforeTime()) return new BigInteger[] {p.beforeA(), p.beforeB()};
        if (t >= p.afterTime()) return new BigInteger[] {p.afterA(), p.afterB()};
        BigInteger interval = BigInteger.valueOf(p.afterTime() - p.beforeTime());
        BigInteger since = BigInteger.valueOf(t - p.beforeTime());
        BigInteger until = BigInteger.valueOf(p.afterTime() - t);
        return new BigInteger[] {
            p.afterA().multiply(since).add(p.beforeA().multiply(until)).divide(interval),
            p.afterB().multiply(since).add(p.beforeB().multiply(until)).divide(interval)
        };
    }

    private Future<String> view(String module, String function, List<String> args) {
        requests++;
        return rest.post(
                "/initia/move/v1/view/json",
                Buffer.buffer(call(module, function, args).encode()),
                b -> b.toJsonObject().getString("data"));
    }

    private JsonObject call(String module, String function, List<String> args) {
        return new JsonObject()
                .put("address", venue.moduleAddress())
                .put("module_name", module)
                .put("function_name", function)
                .put("type_args", new JsonArray())
                .put("args", new JsonArray(new ArrayList<>(args)));
    }

    private static List<String> responses(Buffer b) {
        JsonArray rs = b.toJsonObject().getJsonArray("responses");
        List<String> out = new ArrayList<>();
        for (int i = 0; i < rs.size(); i++) out.add(rs.getJsonObject(i).getString("data"));
        return out;
    }

    private static BigInteger scaled(String decimal) {
        return new BigDecimal(decimal).movePointRight(18).toBigInteger();
    }

    private static String q(String s) {
        return Json.encode(s);
    }

    private static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }

    static String fullAddress(String literal) {
        String hex = literal.startsWith("0x") ? literal.substring(2) : literal;
        return "0x" + "0".repeat(Math.max(0, 64 - hex.length())) + hex.toLowerCase(Locale.ROOT);
    }
}
