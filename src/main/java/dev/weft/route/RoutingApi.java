package dev.weft.route;

import dev.weft.api.ApiModule;
import dev.weft.api.HttpApiVerticle;
import dev.weft.api.Responses;
import dev.weft.api.StrictJson;
import dev.weft.bus.Addresses;
import dev.weft.bus.BusError;
import dev.weft.runtime.NodeContext;
import io.vertx.core.MultiMap;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import java.util.function.Consumer;

/**
 * The routing API: {@code POST /v2/fungible/route}, {@code POST /v2/fungible/msgs}, {@code POST /v2/fungible/msgs_direct},
 * {@code POST /op-hook}, {@code GET /v2/info/chains}, {@code GET /v2/info/bridges}, {@code GET /v2/fungible/assets},
 * {@code GET /v2/fungible/venues}. It only validates requests (types, required fields,
 * positive-integer amounts) and forwards them over the event bus to the route verticle, wherever it runs.
 */
public final class RoutingApi implements ApiModule {
    private static final String SERVICE = "route computation";
    private static final DeliveryOptions DELIVERY =
            new DeliveryOptions().setSendTimeout(10_000).addHeader(Addresses.REPLY_FORMAT, Addresses.ENCODED_REPLY);

    private final NodeContext ctx;

    public RoutingApi(NodeContext ctx) {
        this.ctx = ctx;
    }

    @Override
    public void mount(Router router) {
        router.post("/v2/fungible/route")
                .handler(HttpApiVerticle.bodyHandler(ctx))
                .handler(rc -> post(rc, Addresses.ROUTE_COMPUTE, RouteRequest::parse));
        router.post("/v2/fungible/msgs")
                .handler(HttpApiVerticle.bodyHandler(ctx))
                .handler(rc -> post(rc, Addresses.ROUTE_MSGS, MsgsRequest::parse));
        router.post("/op-hook")
                .handler(HttpApiVerticle.bodyHandler(ctx))
                .handler(rc -> post(rc, Addresses.ROUTE_OP_HOOK, OpHookRequest::parse));
        router.get("/v2/info/chains").handler(this::chains);
        router.get("/v2/fungible/assets").handler(this::assets);
        router.get("/v2/fungible/venues").handler(this::venues);
        router.get("/v2/info/bridges").handler(rc -> forward(rc, Addresses.ROUTE_BRIDGES, new JsonObject()));
        router.post("/v2/fungible/routes")
                .handler(HttpApiVerticle.bodyHandler(ctx))
                .handler(rc -> post(rc, Addresses.ROUTE_ROUTES, RouteRequest::parse));
        // discovery: validated by the route verticle (each answer is computed there)
        for (String[] d : new String[][] {
            {"/v2/fungible/assets_from_source", Addresses.ROUTE_ASSETS_FROM_SOURCE},
            {"/v2/fungible/assets_between_chains", Addresses.ROUTE_ASSETS_BETWEEN_CHAINS},
            {"/v2/fungible/recommend_assets", Addresses.ROUTE_RECOMMEND_ASSETS},
            {"/v2/fungible/ibc_origin_assets", Addresses.ROUTE_IBC_ORIGIN_ASSETS}
        }) {
            router.post(d[0]).handler(HttpApiVerticle.bodyHandler(ctx)).handler(rc -> post(rc, d[1], RoutingApi::any));
        }
        router.post("/v2/fungible/msgs_direct")
                .handler(HttpApiVerticle.bodyHandler(ctx))
                .handler(rc -> post(rc, Addresses.ROUTE_MSGS_DIRECT, RouteRequest::parse));
    }

    @Override
    public String openApiFragment() {
        return "openapi/routing.json";
    }

    private void post(RoutingContext rc, String address, Consumer<JsonObject> validate) {
        JsonObject body;
        try {
            body = StrictJson.object(rc);
            validate.accept(body);
        } catch (BusError e) {
            rc.fail(e);
            return;
        }
        forward(rc, address, body);
    }

    private static void any(JsonObject body) {}

    private void chains(RoutingContext rc) {
        MultiMap q = rc.queryParams();
        JsonObject query = new JsonObject();
        try {
            putChainIds(q, query);
            putBoolean(q, query, "include_evm");
            putBoolean(q, query, "include_svm");
            putBoolean(q, query, "only_testnets");
        } catch (BusError e) {
            rc.fail(e);
            return;
        }
        forward(rc, Addresses.ROUTE_CHAINS, query);
    }

    private void assets(RoutingContext rc) {
        MultiMap q = rc.queryParams();
        JsonObject query = new JsonObject();
        try {
            putChainIds(q, query);
            for (String name : new String[] {
                "native_only",
                "include_evm_assets",
                "include_svm_assets",
                "include_cw20_assets",
                "include_no_metadata_assets",
                "only_testnets"
            }) {
                putBoolean(q, query, name);
            }
        } catch (BusError e) {
            rc.fail(e);
            return;
        }
        forward(rc, Addresses.ROUTE_ASSETS, query);
    }

    private void venues(RoutingContext rc) {
        JsonObject query = new JsonObject();
        try {
            putBoolean(rc.queryParams(), query, "only_testnets");
        } catch (BusError e) {
            rc.fail(e);
            return;
        }
        forward(rc, Addresses.ROUTE_VENUES, query);
    }

    /** {@code chain_ids} as repeated parameters, comma-separated values, or Skip's {@code chain_ids[]}. */
    private static void putChainIds(MultiMap q, JsonObject query) {
        JsonArray ids = new JsonArray();
        for (String name : new String[] {"chain_ids", "chain_ids[]"}) {
            for (String v : q.getAll(name)) {
                for (String id : v.split(",")) if (!id.isBlank()) ids.add(id.trim());
            }
        }
        if (!ids.isEmpty()) query.put("chain_ids", ids);
    }

    private static void putBoolean(MultiMap q, JsonObject query, String name) {
        String v = q.get(name);
        if (v == null) return;
        switch (v.trim().toLowerCase(java.util.Locale.ROOT)) {
            case "true" -> query.put(name, true);
            case "false" -> query.put(name, false);
            default -> throw BusError.invalidValue(name, v, "must be true or false");
        }
    }

    private void forward(RoutingContext rc, String address, JsonObject body) {
        Responses.forwardEncoded(rc, ctx.vertx().eventBus(), address, body, DELIVERY, SERVICE);
    }
}
