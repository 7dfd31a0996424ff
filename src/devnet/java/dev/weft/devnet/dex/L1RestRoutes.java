package dev.weft.devnet.dex;

import dev.weft.devnet.http.DevnetServer;
import dev.weft.devnet.http.Reply;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.function.Function;
import java.util.function.LongSupplier;

/**
 * The devnet L1's REST routes of the Move view functions and the Connect oracle, added to its Cosmos REST server:
 * {@code POST /initia/move/v1/view/json}, {@code POST /initia/move/v1/view/json/batch}, the stableswap pools table
 * ({@code GET /initia/move/v1/accounts/0x1/resources/by_struct_tag?struct_tag=0x1::stableswap::ModuleStore},
 * {@code GET /initia/move/v1/tables/{handle}/entries}) ({@code {requests: [..]}} →
 * {@code {responses: [..]}}, at most {@value #MAX_BATCH} requests), {@code GET /connect/oracle/v2/get_all_tickers},
 * {@code /connect/oracle/v2/get_prices?currency_pair_ids=A/B&…}, {@code /connect/oracle/v2/get_price?currency_pair=A/B}
 * and {@code /connect/marketmap/v2/marketmap}. Errors are the gateway's {@code {code, message, details}}.
 */
public final class L1RestRoutes implements Function<DevnetServer.Request, Reply> {
    static final int MAX_BATCH = 200;

    private final Dex dex;
    private final MoveViews views;
    private final ConnectOracle oracle;
    private final LongSupplier head;

    public L1RestRoutes(Dex dex, MoveViews views, ConnectOracle oracle, LongSupplier head) {
        this.dex = dex;
        this.views = views;
        this.oracle = oracle;
        this.head = head;
    }

    /** The answer to a request of these routes, or null for any other path. */
    @Override
    public Reply apply(DevnetServer.Request r) {
        String p = r.path();
        try {
            if (r.method() == HttpMethod.POST && p.equals("/initia/move/v1/view/json")) return ok(views.view(body(r)));
            if (r.method() == HttpMethod.POST && p.equals("/initia/move/v1/view/json/batch")) return batch(body(r));
            if (r.method() != HttpMethod.GET) return null;
            if (p.startsWith("/initia/move/v1/accounts/") && p.endsWith("/resources/by_struct_tag"))
                return resource(p, r.param("struct_tag"));
            if (p.startsWith("/initia/move/v1/tables/") && p.endsWith("/entries")) return tableEntries(p);
            long h = head.getAsLong();
            return switch (p) {
                case "/connect/oracle/v2/get_all_tickers" -> ok(oracle.allTickers());
                case "/connect/oracle/v2/get_prices" -> prices(r.params().getAll("currency_pair_ids"), h);
                case "/connect/oracle/v2/get_price" -> {
                    String pair = r.param("currency_pair");
                    if (pair == null || pair.isEmpty()) pair = r.param("currency_pair_id");
                    if (pair == null || pair.isEmpty())
                        yield error(400, 3, "currency_pair is required: invalid request");
                    JsonObject price = oracle.price(pair, h);
                    yield price == null ? notTracked(pair) : ok(price);
                }
                case "/connect/marketmap/v2/marketmap" -> ok(oracle.marketMap(h));
                default -> null;
            };
        } catch (MoveViews.ViewError e) {
            return error(e.code == 5 ? 404 : e.code == 3 ? 400 : 500, e.code, e.getMessage());
        }
    }

    /** The one resource the router reads: {@code 0x1::stableswap::ModuleStore} (its pools table). */
    private Reply resource(String path, String tag) {
        String account = MoveViews.address(path.substring(
                "/initia/move/v1/accounts/".length(), path.length() - "/resources/by_struct_tag".length()));
        String store = "0x1::stableswap::ModuleStore";
        if (!account.equals(MoveViews.address("0x1")) || !store.equals(tag)) {
            return error(404, 5, "resource " + tag + " not found at " + MoveViews.literal(account) + ": not found");
        }
        JsonObject data = new JsonObject()
                .put("pool_count", Integer.toString(dex.poolsDescending().size()))
                .put(
                        "pools",
                        new JsonObject()
                                .put("handle", MoveViews.literal(Dex.STABLE_POOLS_TABLE))
                                .put(
                                        "length",
                                        Integer.toString(dex.poolsDescending().size())));
        JsonObject moveResource = new JsonObject().put("type", store).put("data", data);
        return ok(new JsonObject()
                .put(
                        "resource",
                        new JsonObject()
                                .put("address", "0x1")
                                .put("struct_tag", store)
                                .put("move_resource", moveResource.encode())
                                .put("raw_bytes", "")));
    }

    /** Entries of the stableswap pools table: key = pool address (JSON text), value = true; one page. */
    private Reply tableEntries(String path) {
        String handle = MoveViews.address(
                path.substring("/initia/move/v1/tables/".length(), path.length() - "/entries".length()));
        if (!handle.equals(Dex.STABLE_POOLS_TABLE))
            return error(404, 5, "table " + MoveViews.literal(handle) + " not found: not found");
        JsonArray entries = new JsonArray();
        List<StablePool> pools = new java.util.ArrayList<>(dex.poolsDescending());
        java.util.Collections.reverse(pools);
        for (StablePool p : pools) {
            byte[] key = dev.weft.chain.Hex.decode(p.address.substring(2));
            entries.add(new JsonObject()
                    .put("address", MoveViews.literal(handle))
                    .put("key_bytes", java.util.Base64.getEncoder().encodeToString(key))
                    .put("value_bytes", "AQ==")
                    .put("key", "\"" + MoveViews.literal(p.address) + "\"")
                    .put("value", "true"));
        }
        return ok(new JsonObject()
                .put("table_entries", entries)
                .put(
                        "pagination",
                        new JsonObject().put("next_key", null).put("total", Integer.toString(entries.size()))));
    }

    private Reply batch(JsonObject body) {
        JsonArray requests = body.getJsonArray("requests", new JsonArray());
        if (requests.size() > MAX_BATCH)
            return error(400, 3, "at most " + MAX_BATCH + " view requests per batch: invalid request");
        JsonArray responses = new JsonArray();
        for (int i = 0; i < requests.size(); i++) {
            if (!(requests.getValue(i) instanceof JsonObject q))
                return error(400, 3, "requests[" + i + "] is not an object: invalid request");
            responses.add(views.view(q));
        }
        return ok(new JsonObject().put("responses", responses));
    }

    private Reply prices(List<String> ids, long h) {
        JsonArray out = new JsonArray();
        for (String id : ids) {
            for (String pair : id.split(",")) {
                JsonObject price = oracle.price(pair, h);
                if (price == null) return notTracked(pair);
                out.add(price);
            }
        }
        return ok(new JsonObject().put("prices", out));
    }

    private static Reply notTracked(String pair) {
        return error(
                404,
                5,
                "no price / nonce reported for CurrencyPair: " + pair
                        + ", the module is not tracking this CurrencyPair: not found");
    }

    private static JsonObject body(DevnetServer.Request r) {
        try {
            JsonObject o =
                    r.body() == null || r.body().length() == 0 ? null : r.body().toJsonObject();
            if (o == null) throw new MoveViews.ViewError(3, "empty body: invalid request");
            return o;
        } catch (DecodeException | ClassCastException e) {
            throw new MoveViews.ViewError(3, "the body is not a JSON object: invalid request");
        }
    }

    private static Reply ok(JsonObject o) {
        return Reply.json(Buffer.buffer(o.encode()));
    }

    private static Reply error(int status, int code, String message) {
        return Reply.json(
                status,
                Buffer.buffer(new JsonObject()
                        .put("code", code)
                        .put("message", message)
                        .put("details", new JsonArray())
                        .encode()));
    }
}
