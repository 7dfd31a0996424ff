package dev.weft.route.live;

import dev.weft.chain.client.NodeHttp;
import dev.weft.route.registry.Asset;
import dev.weft.route.registry.Registry;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.math.BigDecimal;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * USD prices from a chain's Connect oracle (skip-mev/connect {@code x/oracle}): the markets {@code <SYMBOL>/USD} the
 * oracle tracks ({@code GET /connect/oracle/v2/get_all_tickers}) for the symbols of the registry's assets, then their
 * prices in one {@code GET /connect/oracle/v2/get_prices?currency_pair_ids=…} per refresh. A price is its integer
 * value over 10^decimals, with the height and time of its last update.
 */
public final class ConnectPrices {
    private static final int MAX_PAIRS = 200;

    private final NodeHttp rest;
    private final Registry registry;
    private List<String> pairs;
    private long requests;

    public ConnectPrices(NodeHttp rest, Registry registry) {
        this.rest = rest;
        this.registry = registry;
    }

    public long requests() {
        return requests;
    }

    /** The markets to read: the oracle's {@code X/USD} tickers whose base is the symbol of an asset of the registry. */
    public Future<List<String>> discover() {
        Set<String> symbols = new TreeSet<>();
        for (Asset a : registry.assets())
            if (a.symbol() != null) symbols.add(a.symbol().toUpperCase(Locale.ROOT));
        requests++;
        return rest.get("/connect/oracle/v2/get_all_tickers", Buffer::toJsonObject)
                .map(o -> {
                    List<String> out = new ArrayList<>();
                    for (Object p : o.getJsonArray("currency_pairs", new JsonArray())) {
                        JsonObject cp = (JsonObject) p;
                        String base = cp.getString("Base", "").toUpperCase(Locale.ROOT);
                        if ("USD".equals(cp.getString("Quote")) && symbols.contains(base) && out.size() < MAX_PAIRS)
                            out.add(base + "/USD");
                    }
                    pairs = List.copyOf(out);
                    return pairs;
                });
    }

    /** The current prices of the discovered markets, by symbol. */
    public Future<Map<String, OraclePrice>> refresh() {
        if (pairs == null || pairs.isEmpty()) return Future.succeededFuture(Map.of());
        StringBuilder q = new StringBuilder("/connect/oracle/v2/get_prices?");
        for (int i = 0; i < pairs.size(); i++) {
            if (i > 0) q.append('&');
            q.append("currency_pair_ids=").append(URLEncoder.encode(pairs.get(i), StandardCharsets.UTF_8));
        }
        requests++;
        List<String> asked = pairs;
        return rest.get(q.toString(), Buffer::toJsonObject).map(o -> {
            JsonArray prices = o.getJsonArray("prices");
            Map<String, OraclePrice> out = new LinkedHashMap<>();
            for (int i = 0; i < prices.size() && i < asked.size(); i++) {
                OraclePrice p = price(asked.get(i), prices.getJsonObject(i));
                out.put(p.symbol(), p);
            }
            return out;
        });
    }

    static OraclePrice price(String pair, JsonObject response) {
        JsonObject quote = response.getJsonObject("price");
        BigDecimal usd = new BigDecimal(quote.getString("price"))
                .movePointLeft(Integer.parseInt(response.getString("decimals")));
        return new OraclePrice(
                pair.substring(0, pair.indexOf('/')),
                usd,
                Long.parseLong(quote.getString("block_height")),
                Instant.parse(quote.getString("block_timestamp")));
    }
}
