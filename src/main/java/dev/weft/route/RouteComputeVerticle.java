package dev.weft.route;

import dev.weft.bus.Addresses;
import dev.weft.bus.BusError;
import dev.weft.config.RouteConfig;
import dev.weft.route.live.MarketState;
import dev.weft.route.live.MarketStateSource;
import dev.weft.route.registry.Registry;
import dev.weft.route.registry.RegistryLoader;
import dev.weft.runtime.JsonBytes;
import dev.weft.runtime.NodeContext;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.eventbus.Message;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.json.JsonObject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BiFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Route computation: answers route, msgs, op-hook, chains and assets requests over the event bus from an immutable
 * {@link RouteService} (registry + graph). {@link Addresses#ROUTE_RELOAD} (published) re-reads the registry files and
 * swaps the service atomically; a periodic scan does the same when a file changes. The market state (live venues'
 * pools, oracle prices) is read in the background by a {@link MarketStateSource}; each read builds a new service
 * over the registry and that state (requests never wait for a chain). Needs no database; stateless per request, so
 * any number of instances on any nodes can serve.
 */
public final class RouteComputeVerticle extends VerticleBase {
    private static final Logger LOG = LoggerFactory.getLogger(RouteComputeVerticle.class);

    private final RouteConfig config;
    private final Clock clock;
    private final AtomicReference<RouteService> service = new AtomicReference<>();
    private volatile List<Long> fileStamps = List.of();
    private Registry base;
    private MarketState market = MarketState.EMPTY;
    private MarketStateSource source;
    private boolean updatedSinceTick;
    /** Service builds started and the latest one applied (event-loop only). */
    private long builds;

    private long applied;
    /** Simulates the Cosmos txs of msgs answers on their chains' nodes (created at start). */
    private GasSimulator gasSimulator;
    /** EVM chains' JSON-RPC clients and cached gas prices, shared by every service this verticle builds. */
    private EvmGasPrices evmPrices = EvmGasPrices.NONE;

    public RouteComputeVerticle(NodeContext ctx) {
        this(ctx.config().route(), Clock.systemUTC());
    }

    public RouteComputeVerticle(RouteConfig config, Clock clock) {
        this.config = config;
        this.clock = clock;
    }

    /** The market-state source (null before start or without live venues); the bench reads its request count. */
    public MarketStateSource marketSource() {
        return source;
    }

    @Override
    public Future<?> start() {
        evmPrices = new EvmGasPrices(vertx, config, clock);
        return vertx.executeBlocking(this::loadRegistry, false).compose(r -> {
            RouteService s = useRegistry(r);
            LOG.info(
                    "route registry {}: {} chains, {} assets, {} graph edges",
                    s.registry().sources(),
                    s.registry().chains().size(),
                    s.registry().assets().size(),
                    s.graph().edgeCount());
            List<Future<Void>> registered = new ArrayList<>();
            registered.add(serve(Addresses.ROUTE_COMPUTE, RouteService::route));
            gasSimulator = new GasSimulator(vertx, config);
            registered.add(serveAsync(Addresses.ROUTE_MSGS, this::msgs));
            registered.add(serve(Addresses.ROUTE_OP_HOOK, RouteService::opHook));
            registered.add(serve(Addresses.ROUTE_CHAINS, RouteService::chains));
            registered.add(serve(Addresses.ROUTE_ASSETS, RouteService::assets));
            registered.add(serve(Addresses.ROUTE_VENUES, RouteService::venues));
            registered.add(serve(Addresses.ROUTE_BRIDGES, RouteService::bridges));
            registered.add(serve(Addresses.ROUTE_MSGS_DIRECT, RouteService::msgsDirect));
            registered.add(serve(Addresses.ROUTE_ROUTES, RouteService::routes));
            registered.add(serve(Addresses.ROUTE_ASSETS_FROM_SOURCE, Discovery::assetsFromSource));
            registered.add(serve(Addresses.ROUTE_ASSETS_BETWEEN_CHAINS, Discovery::assetsBetweenChains));
            registered.add(serve(Addresses.ROUTE_RECOMMEND_ASSETS, Discovery::recommendAssets));
            registered.add(serve(Addresses.ROUTE_IBC_ORIGIN_ASSETS, Discovery::ibcOriginAssets));
            registered.add(vertx.eventBus()
                    .<JsonObject>consumer(Addresses.ROUTE_RELOAD, this::onReload)
                    .completion());
            long every = config.reloadScanInterval().toMillis();
            if (every > 0) vertx.setPeriodic(every, every, id -> scan());
            long tick = config.poolRefresh().toMillis();
            vertx.setPeriodic(tick, tick, id -> {
                // without reads (a chain down) the state still ages: rebuild so that stale pools and prices drop out
                if (!updatedSinceTick && base != null) rebuild(base, market);
                updatedSinceTick = false;
            });
            return Future.all(registered);
        });
    }

    @Override
    public Future<?> stop() {
        Future<Void> gas = Future.join(
                        gasSimulator == null ? Future.succeededFuture() : gasSimulator.close(), evmPrices.close())
                .mapEmpty();
        return source == null ? gas : Future.join(gas, source.stop());
    }

    /** {@code /v2/fungible/msgs}: the txs built from the route, then their gas simulated (bounded, never failing). */
    private Future<JsonObject> msgs(RouteService s, JsonObject body) {
        GasSimulator.warnings(body);
        return gasSimulator.refine(s, body, s.msgs(body));
    }

    /** Serves a newly loaded registry: a service over it and the market state, and a market source for its venues. */
    private RouteService useRegistry(Registry r) {
        base = r;
        market = MarketState.EMPTY;
        RouteService s = RouteService.withMarket(r, config, clock, market, evmPrices);
        service.set(s);
        // the EVM chains priced by their node: read once now, so that the first quotes have a price
        List<String> nodePriced = new ArrayList<>();
        for (var c : r.chains().values())
            if (c.isEvmChain() && s.gas().evmPriceFromNode(c.chainId())) nodePriced.add(c.chainId());
        evmPrices.warm(r, nodePriced);
        MarketStateSource old = source;
        if (old != null) old.stop();
        source = new MarketStateSource(vertx, config, r, clock, this::onMarket);
        source.start();
        return s;
    }

    private void onMarket(MarketState m) {
        market = m;
        updatedSinceTick = true;
        rebuild(base, m);
    }

    /**
     * Builds the service over a new market state on a worker thread, so that requests on this event loop never wait for
     * a graph build; a build that completes after a later one is dropped.
     */
    private void rebuild(Registry registry, MarketState m) {
        long seq = ++builds;
        vertx.executeBlocking(() -> RouteService.withMarket(registry, config, clock, m, evmPrices), false)
                .onComplete(ar -> {
                    if (ar.failed()) {
                        LOG.error("route service over the new market state not built", ar.cause());
                    } else if (seq > applied && registry == base) {
                        applied = seq;
                        service.set(ar.result());
                    }
                });
    }

    private Future<Void> serve(String address, BiFunction<RouteService, JsonObject, JsonObject> handler) {
        MessageConsumer<JsonObject> c = vertx.eventBus().consumer(address, msg -> {
            try {
                JsonObject answer = handler.apply(service.get(), msg.body() == null ? new JsonObject() : msg.body());
                msg.reply(
                        Addresses.ENCODED_REPLY.equals(msg.headers().get(Addresses.REPLY_FORMAT))
                                ? JsonBytes.encode(answer)
                                : answer);
            } catch (BusError e) {
                e.failTo(msg);
            } catch (RuntimeException e) {
                LOG.error("{} failed for {}", address, msg.body(), e);
                BusError.internal().failTo(msg);
            }
        });
        return c.completion();
    }

    /** As {@link #serve}, for a handler whose answer needs requests to the chains. */
    private Future<Void> serveAsync(String address, BiFunction<RouteService, JsonObject, Future<JsonObject>> handler) {
        MessageConsumer<JsonObject> c = vertx.eventBus().consumer(address, msg -> {
            Future<JsonObject> answer;
            try {
                answer = handler.apply(service.get(), msg.body() == null ? new JsonObject() : msg.body());
            } catch (RuntimeException e) {
                answer = Future.failedFuture(e);
            }
            answer.onComplete(ar -> {
                if (ar.succeeded()) {
                    msg.reply(
                            Addresses.ENCODED_REPLY.equals(msg.headers().get(Addresses.REPLY_FORMAT))
                                    ? JsonBytes.encode(ar.result())
                                    : ar.result());
                } else if (ar.cause() instanceof BusError e) {
                    e.failTo(msg);
                } else {
                    LOG.error("{} failed for {}", address, msg.body(), ar.cause());
                    BusError.internal().failTo(msg);
                }
            });
        });
        return c.completion();
    }

    /** Loads the files; their stamps are recorded first, so that a broken file is retried only once it changes again. */
    private Registry loadRegistry() {
        fileStamps = stamps();
        return RegistryLoader.load(config.registries(), config.finalizationPeriods());
    }

    private void onReload(Message<JsonObject> msg) {
        reload().onComplete(ar -> {
            if (msg.replyAddress() == null) return;
            if (ar.succeeded()) {
                msg.reply(new JsonObject()
                        .put("chains", ar.result().registry().chains().size())
                        .put("assets", ar.result().registry().assets().size()));
            } else {
                new BusError(500, "registry reload failed: " + ar.cause().getMessage()).failTo(msg);
            }
        });
    }

    private Future<RouteService> reload() {
        return vertx.executeBlocking(this::loadRegistry, false)
                .map(this::useRegistry)
                .onSuccess(s -> {
                    LOG.info(
                            "route registry reloaded: {} chains, {} assets",
                            s.registry().chains().size(),
                            s.registry().assets().size());
                })
                .onFailure(e ->
                        LOG.error("route registry reload failed, keeping the previous registry: {}", e.getMessage()));
    }

    private void scan() {
        vertx.executeBlocking(this::stamps, false).onSuccess(now -> {
            if (!Objects.equals(now, fileStamps)) reload();
        });
    }

    /** Modification times of the registry files that exist on disk (bundled resources never change). */
    private List<Long> stamps() {
        List<Long> out = new ArrayList<>();
        for (String f : config.registries()) {
            try {
                Path p = Path.of(f);
                out.add(Files.exists(p) ? Files.getLastModifiedTime(p).toMillis() : -1L);
            } catch (java.io.IOException e) {
                out.add(-2L);
            }
        }
        return out;
    }
}
