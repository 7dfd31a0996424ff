package dev.weft.devnet.dex;

import dev.weft.devnet.http.Times;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongUnaryOperator;

/**
 * The Connect (Skip) oracle of the devnet L1: markets INIT/USD and USDC/USD whose prices move every block, a
 * deterministic function of the height (a slow swing of ±5 % around a base price plus a small per-block wobble), as
 * the validators' vote extensions would write them. {@link #stopAt} freezes the prices at a height (an oracle whose
 * feed stopped: its last update keeps its height and time). Answers the REST queries of {@code x/oracle} and
 * {@code x/marketmap} ({@code skip-mev/connect}: {@code /connect/oracle/v2/get_all_tickers}, {@code get_prices},
 * {@code get_price}, {@code /connect/marketmap/v2/marketmap}).
 */
public final class ConnectOracle {
    /** A market: its pair, the decimals its price is quoted in, its id and its base USD price. */
    record Market(String base, String quote, int decimals, long id, BigDecimal basePrice) {
        String pair() {
            return base + "/" + quote;
        }
    }

    private final String chainId;
    private final Map<String, Market> markets = new LinkedHashMap<>();
    private final LongUnaryOperator blockTimeNanos;
    private volatile long stoppedAt = Long.MAX_VALUE;

    public ConnectOracle(String chainId, LongUnaryOperator blockTimeNanos) {
        this.chainId = chainId;
        this.blockTimeNanos = blockTimeNanos;
        for (Market m : List.of(
                new Market("INIT", "USD", 8, 0, new BigDecimal("0.62")),
                new Market("USDC", "USD", 9, 1, new BigDecimal("1")),
                new Market("ETH", "USD", 6, 2, new BigDecimal("3000")))) {
            markets.put(m.pair(), m);
        }
    }

    /** Prices stop updating after this height (tests: an oracle whose feed stopped). */
    public void stopAt(long height) {
        stoppedAt = height;
    }

    /** The height of a market's last update at chain head {@code head}. */
    long updatedAt(long head) {
        return Math.min(head, stoppedAt);
    }

    /** The integer price of a market at a height, in its decimals. */
    static String priceAt(Market m, long height) {
        double swing = 0.05 * Math.sin(height / 40.0) + 0.002 * Math.sin(height * 1.7);
        BigDecimal p = m.basePrice().multiply(BigDecimal.valueOf(1 + swing));
        if (m.quote().equals("USD") && m.base().equals("USDC"))
            p = m.basePrice().multiply(BigDecimal.valueOf(1 + swing / 50));
        return p.movePointRight(m.decimals()).setScale(0, RoundingMode.DOWN).toPlainString();
    }

    public JsonObject allTickers() {
        JsonArray pairs = new JsonArray();
        for (Market m : markets.values()) pairs.add(currencyPair(m));
        return new JsonObject().put("currency_pairs", pairs);
    }

    /** {@code GetPriceResponse} of one market, or null when the oracle does not track it. */
    public JsonObject price(String pair, long head) {
        Market m = markets.get(pair);
        if (m == null) return null;
        long h = updatedAt(head);
        JsonObject quote = new JsonObject()
                .put("price", priceAt(m, h))
                .put("block_timestamp", Times.rfc3339Nano(blockTimeNanos.applyAsLong(h)))
                .put("block_height", Long.toString(h));
        return new JsonObject()
                .put("price", quote)
                .put("nonce", Long.toString(h))
                .put("decimals", Long.toString(m.decimals()))
                .put("id", Long.toString(m.id()));
    }

    public JsonObject marketMap(long head) {
        JsonObject all = new JsonObject();
        for (Market m : markets.values()) {
            JsonObject ticker = new JsonObject()
                    .put("currency_pair", currencyPair(m))
                    .put("decimals", Long.toString(m.decimals()))
                    .put("min_provider_count", "1")
                    .put("enabled", true)
                    .put("metadata_JSON", "");
            JsonArray providers = new JsonArray()
                    .add(new JsonObject()
                            .put("name", "weft_devnet_api")
                            .put("off_chain_ticker", m.base() + m.quote())
                            .put("normalize_by_pair", null)
                            .put("invert", false)
                            .put("metadata_JSON", ""));
            all.put(m.pair(), new JsonObject().put("ticker", ticker).put("provider_configs", providers));
        }
        return new JsonObject()
                .put("market_map", new JsonObject().put("markets", all))
                .put("last_updated", "1")
                .put("chain_id", chainId);
    }

    private static JsonObject currencyPair(Market m) {
        return new JsonObject().put("Base", m.base()).put("Quote", m.quote());
    }
}
