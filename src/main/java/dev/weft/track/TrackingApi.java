package dev.weft.track;

import dev.weft.api.ApiModule;
import dev.weft.api.HttpApiVerticle;
import dev.weft.api.RequestClient;
import dev.weft.api.Responses;
import dev.weft.api.StrictJson;
import dev.weft.bus.Addresses;
import dev.weft.bus.BusError;
import dev.weft.runtime.NodeContext;
import dev.weft.store.TransferStore;
import io.vertx.core.Future;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.Message;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;

/**
 * Transfer tracking: {@code POST /v2/tx/track} and {@code GET /v2/tx/status}. The handlers check the request's shape
 * and forward it over the event bus ({@link Addresses#TRACK_REGISTER}, {@link Addresses#TRACK_STATUS}); every API
 * instance also answers those addresses from the database ({@link TrackService}), so registration and status work on
 * any API node (and for bridge clients) whether or not the tracker runs there or at all.
 */
public final class TrackingApi implements ApiModule {
    private static final String SERVICE = "transfer tracking";
    private static final DeliveryOptions DELIVERY = new DeliveryOptions().setSendTimeout(10_000);

    private final NodeContext ctx;
    private final RegistrationQuota quota;
    private Future<TrackService> service;

    public TrackingApi(NodeContext ctx) {
        this.ctx = ctx;
        this.quota = new RegistrationQuota(ctx.config().track().registrationsPerClient(), System::currentTimeMillis);
    }

    /**
     * Applies the per-client registration quota ({@code track.registrations_per_client} a minute): false after failing
     * the request with 429 and {@code Retry-After}.
     */
    public static boolean withinQuota(RoutingContext rc, RegistrationQuota quota) {
        if (quota.allow(RequestClient.of(rc))) return true;
        rc.response().putHeader("Retry-After", Long.toString(quota.retryAfterSeconds()));
        rc.fail(new BusError(
                429, "too many tracking registrations from this client: at most " + quota.perMinute() + " a minute"));
        return false;
    }

    @Override
    public void mount(Router router) {
        router.post("/v2/tx/track").handler(HttpApiVerticle.bodyHandler(ctx)).handler(this::track);
        router.get("/v2/tx/status").handler(this::status);
        if (ctx.pool() != null) {
            ctx.vertx()
                    .eventBus()
                    .<JsonObject>consumer(Addresses.TRACK_REGISTER, m -> answer(m, s -> s.track(m.body())));
            ctx.vertx()
                    .eventBus()
                    .<JsonObject>consumer(Addresses.TRACK_STATUS, m -> answer(m, s -> s.status(m.body())));
        }
    }

    @Override
    public String openApiFragment() {
        return "openapi/tracking.json";
    }

    private void track(RoutingContext rc) {
        JsonObject body;
        try {
            JsonObject o = StrictJson.object(rc);
            body = new JsonObject()
                    .put("tx_hash", text(o.getValue("tx_hash"), "tx_hash"))
                    .put("chain_id", text(o.getValue("chain_id"), "chain_id"));
        } catch (BusError e) {
            rc.fail(e);
            return;
        }
        if (withinQuota(rc, quota)) forward(rc, Addresses.TRACK_REGISTER, body);
    }

    private void status(RoutingContext rc) {
        JsonObject query;
        try {
            query = new JsonObject()
                    .put("tx_hash", text(rc.queryParams().get("tx_hash"), "tx_hash"))
                    .put("chain_id", text(rc.queryParams().get("chain_id"), "chain_id"));
        } catch (BusError e) {
            rc.fail(e);
            return;
        }
        forward(rc, Addresses.TRACK_STATUS, query);
    }

    private static String text(Object v, String name) {
        if (v == null || (v instanceof String s && s.isBlank())) throw BusError.badRequest(name + " is required");
        if (!(v instanceof String s)) throw BusError.badRequest(name + " must be a string");
        return s.trim();
    }

    private void forward(RoutingContext rc, String address, JsonObject body) {
        Responses.forward(rc, ctx.vertx().eventBus(), address, body, DELIVERY, SERVICE);
    }

    private void answer(Message<JsonObject> m, java.util.function.Function<TrackService, Future<JsonObject>> call) {
        BusAnswers.answer(m, service(), call, SERVICE);
    }

    /** The service, built once per API instance (loading the registries is file IO: off the event loop). */
    private Future<TrackService> service() {
        if (service == null) {
            service = ctx.vertx()
                    .executeBlocking(() -> new TrackService(
                            new TransferStore(ctx.pool()),
                            TrackChains.load(ctx.config()),
                            ctx.vertx().eventBus(),
                            ctx.config().track().maxOpen()));
            service.onFailure(e -> service = null);
        }
        return service;
    }
}
