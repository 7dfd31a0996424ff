package dev.weft.track;

import dev.weft.api.HttpApiVerticle;
import dev.weft.api.RequestClient;
import dev.weft.api.Responses;
import dev.weft.api.StrictJson;
import dev.weft.bus.Addresses;
import dev.weft.bus.BusError;
import dev.weft.runtime.NodeContext;
import dev.weft.store.TransferStore;
import dev.weft.store.TxHeightsStore;
import dev.weft.store.WatchStore;
import dev.weft.track.poll.ChainHeads;
import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.Message;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * Watched addresses: {@code POST/GET/DELETE /v2/watch} and {@code GET /v2/tx/by_address}. As {@link TrackingApi}, the
 * handlers check the request's shape and forward it over the bus ({@link Addresses#TRACK_WATCH},
 * {@link Addresses#TRACK_BY_ADDRESS}), answered by every API instance from the database ({@link WatchService}); the
 * client the bounds count ({@code track.watch.max_per_client}) is the HTTP client ({@link RequestClient}). Documented
 * in the tracking fragment of {@link TrackingApi}.
 */
public final class WatchApi implements dev.weft.api.ApiModule {
    private static final String SERVICE = "watched addresses";
    private static final DeliveryOptions DELIVERY = new DeliveryOptions().setSendTimeout(10_000);
    private static final Set<String> WATCH_PARAMS = Set.of("chain_id", "address");
    private static final Set<String> BY_ADDRESS_PARAMS = Set.of("chain_id", "address", "limit", "cursor");

    /** The POST waits for the head: as {@link ChainHeads}, at most 5 s. */
    private static final long INDEX_HEAD_MS = 5_000;

    private final NodeContext ctx;
    private Future<WatchService> service;

    public WatchApi(NodeContext ctx) {
        this.ctx = ctx;
    }

    @Override
    public void mount(Router router) {
        router.post("/v2/watch").handler(HttpApiVerticle.bodyHandler(ctx)).handler(this::add);
        router.get("/v2/watch").handler(this::get);
        router.delete("/v2/watch").handler(this::delete);
        router.get("/v2/tx/by_address").handler(this::byAddress);
        if (ctx.pool() != null) {
            ctx.vertx().eventBus().<JsonObject>consumer(Addresses.TRACK_WATCH, m -> answer(m, s -> s.watch(m.body())));
            ctx.vertx()
                    .eventBus()
                    .<JsonObject>consumer(Addresses.TRACK_BY_ADDRESS, m -> answer(m, s -> s.byAddress(m.body())));
        }
    }

    private void add(RoutingContext rc) {
        JsonObject req;
        try {
            JsonObject o = StrictJson.object(rc);
            for (String f : o.fieldNames())
                if (!WATCH_PARAMS.contains(f)) throw BusError.badRequest("unknown field " + f);
            req = op(rc, "add")
                    .put("chain_id", text(o.getValue("chain_id"), "chain_id"))
                    .put("address", text(o.getValue("address"), "address"));
        } catch (BusError e) {
            rc.fail(e);
            return;
        }
        request(rc, Addresses.TRACK_WATCH, req).onSuccess(r -> {
            boolean created = Boolean.TRUE.equals(r.remove("created"));
            Responses.json(rc, created ? 201 : 200, r);
        });
    }

    private void get(RoutingContext rc) {
        JsonObject req;
        try {
            MultiMap q = query(rc, WATCH_PARAMS);
            if (q.isEmpty()) req = op(rc, "list");
            else req = op(rc, "get").put("chain_id", param(q, "chain_id")).put("address", param(q, "address"));
        } catch (BusError e) {
            rc.fail(e);
            return;
        }
        request(rc, Addresses.TRACK_WATCH, req).onSuccess(r -> Responses.json(rc, r));
    }

    private void delete(RoutingContext rc) {
        JsonObject req;
        try {
            MultiMap q = query(rc, WATCH_PARAMS);
            req = op(rc, "delete").put("chain_id", param(q, "chain_id")).put("address", param(q, "address"));
        } catch (BusError e) {
            rc.fail(e);
            return;
        }
        request(rc, Addresses.TRACK_WATCH, req)
                .onSuccess(r -> rc.response().setStatusCode(204).end());
    }

    private void byAddress(RoutingContext rc) {
        JsonObject req;
        try {
            MultiMap q = query(rc, BY_ADDRESS_PARAMS);
            req = new JsonObject().put("chain_id", param(q, "chain_id")).put("address", param(q, "address"));
            if (q.get("limit") != null) req.put("limit", q.get("limit"));
            if (q.get("cursor") != null) req.put("cursor", q.get("cursor"));
        } catch (BusError e) {
            rc.fail(e);
            return;
        }
        request(rc, Addresses.TRACK_BY_ADDRESS, req).onSuccess(r -> Responses.json(rc, r));
    }

    private static JsonObject op(RoutingContext rc, String op) {
        return new JsonObject().put("op", op).put("client", RequestClient.of(rc));
    }

    /** The query parameters, each known and given once. */
    private static MultiMap query(RoutingContext rc, Set<String> known) {
        MultiMap q = rc.queryParams();
        for (String name : q.names()) {
            if (!known.contains(name)) throw BusError.badRequest("unknown parameter " + name);
            if (q.getAll(name).size() > 1) throw BusError.badRequest(name + " given more than once");
        }
        return q;
    }

    private static String param(MultiMap q, String name) {
        return text(q.get(name), name);
    }

    private static String text(Object v, String name) {
        if (v == null || (v instanceof String s && s.isBlank())) throw BusError.badRequest(name + " is required");
        if (!(v instanceof String s)) throw BusError.badRequest(name + " must be a string");
        return s.trim();
    }

    /** The service's answer; a failure is already sent as the JSON error. */
    private Future<JsonObject> request(RoutingContext rc, String address, JsonObject body) {
        return BusError.request(ctx.vertx().eventBus(), address, body, DELIVERY, SERVICE)
                .onFailure(rc::fail);
    }

    private void answer(Message<JsonObject> m, Function<WatchService, Future<JsonObject>> call) {
        BusAnswers.answer(m, service(), call, SERVICE);
    }

    /**
     * The head of a chain this deployment indexes, from its index (the ingest cursor, which the tracker follows it by:
     * {@code IndexedChains}) rather than its node; null for a chain not indexed here, before anything is indexed, or
     * when the index does not answer in time (the node is asked then). An index behind its node gives a lower head: the
     * watch's transfers are looked for from further back (bounded by {@code track.lookback_blocks}), none missed.
     */
    private Future<Long> indexedHead(String chain) {
        return ctx.chains()
                .get(chain)
                .filter(c -> c.pool() != null)
                .map(c -> new TxHeightsStore(c.pool())
                        .head()
                        .timeout(INDEX_HEAD_MS, TimeUnit.MILLISECONDS)
                        .map(m -> m.height() > 0 ? m.height() : (Long) null)
                        .otherwise((Long) null))
                .orElse(Future.succeededFuture(null));
    }

    /** The service, built once per API instance (loading the registries is file IO: off the event loop). */
    private Future<WatchService> service() {
        if (service == null) {
            service = ctx.vertx()
                    .executeBlocking(() -> TrackChains.load(ctx.config()))
                    .map(chains -> {
                        // chains not indexed here: their nodes
                        ChainHeads nodes = new ChainHeads(
                                ctx.vertx(),
                                chains::rpcUrls,
                                chains::ownRpc,
                                chains::evmEndpoints,
                                chains::isEvm,
                                ctx.config().track());
                        Function<String, Future<Long>> heads = chain -> chains.isEvm(chain)
                                ? nodes.head(chain)
                                : indexedHead(chain)
                                        .compose(h -> h != null ? Future.succeededFuture(h) : nodes.head(chain));
                        return new WatchService(
                                new WatchStore(ctx.pool()),
                                new TransferStore(ctx.pool()),
                                chains,
                                ctx.vertx().eventBus(),
                                ctx.config().track(),
                                heads);
                    });
            service.onFailure(e -> service = null);
        }
        return service;
    }
}
