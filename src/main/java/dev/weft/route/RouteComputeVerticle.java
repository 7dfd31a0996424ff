package dev.weft.route;

import dev.weft.bus.Addresses;
import dev.weft.node.NodeContext;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.eventbus.Message;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.json.JsonObject;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BiFunction;

/**
 * Route computation: answers route, msgs, op-hook, chains and assets requests over the event bus from an immutable
 * {@link RouteService} (registry + graph). {@link Addresses#ROUTE_RELOAD} (published) re-reads the registry files and
 * swaps the service atomically; a periodic scan does the same when a file changes. Needs no database; stateless per
 * request, so any number of instances on any nodes can serve.
 */
public final class RouteComputeVerticle extends VerticleBase {
  private static final Logger LOG = LoggerFactory.getLogger(RouteComputeVerticle.class);

  private final RouteConfig config;
  private final Clock clock;
  private final AtomicReference<RouteService> service = new AtomicReference<>();
  private volatile List<Long> fileStamps = List.of();

  public RouteComputeVerticle(NodeContext ctx) {
    this(ctx.config().route(), Clock.systemUTC());
  }

  public RouteComputeVerticle(RouteConfig config, Clock clock) {
    this.config = config;
    this.clock = clock;
  }

  @Override
  public Future<?> start() {
    return vertx.executeBlocking(this::loadService, false).compose(s -> {
      service.set(s);
      LOG.info("route registry {}: {} chains, {} assets, {} graph edges", s.registry().sources(), s.registry().chains().size(),
          s.registry().assets().size(), s.graph().edgeCount());
      List<Future<Void>> registered = new ArrayList<>();
      registered.add(serve(Addresses.ROUTE_COMPUTE, RouteService::route));
      registered.add(serve(Addresses.ROUTE_MSGS, RouteService::msgs));
      registered.add(serve(Addresses.ROUTE_OP_HOOK, RouteService::opHook));
      registered.add(serve(Addresses.ROUTE_CHAINS, RouteService::chains));
      registered.add(serve(Addresses.ROUTE_ASSETS, RouteService::assets));
      registered.add(serve(Addresses.ROUTE_VENUES, RouteService::venues));
      registered.add(serve(Addresses.ROUTE_BRIDGES, RouteService::bridges));
      registered.add(serve(Addresses.ROUTE_MSGS_DIRECT, RouteService::msgsDirect));
      registered.add(vertx.eventBus().<JsonObject>consumer(Addresses.ROUTE_RELOAD, this::onReload).completion());
      long every = config.reloadScanInterval().toMillis();
      if (every > 0) vertx.setPeriodic(every, every, id -> scan());
      return Future.all(registered);
    });
  }

  private Future<Void> serve(String address, BiFunction<RouteService, JsonObject, JsonObject> handler) {
    MessageConsumer<JsonObject> c = vertx.eventBus().consumer(address, msg -> {
      try {
        msg.reply(handler.apply(service.get(), msg.body() == null ? new JsonObject() : msg.body()));
      } catch (RouteError e) {
        e.failTo(msg);
      } catch (RuntimeException e) {
        LOG.error("{} failed for {}", address, msg.body(), e);
        new RouteError(500, "internal server error").failTo(msg);
      }
    });
    return c.completion();
  }

  /** Loads the files; their stamps are recorded first, so that a broken file is retried only once it changes again. */
  private RouteService loadService() {
    fileStamps = stamps();
    return RouteService.load(config, clock);
  }

  private void onReload(Message<JsonObject> msg) {
    reload().onComplete(ar -> {
      if (msg.replyAddress() == null) return;
      if (ar.succeeded()) {
        msg.reply(new JsonObject().put("chains", ar.result().registry().chains().size()).put("assets", ar.result().registry().assets().size()));
      } else {
        msg.fail(500, "registry reload failed: " + ar.cause().getMessage());
      }
    });
  }

  private Future<RouteService> reload() {
    return vertx.executeBlocking(this::loadService, false)
        .onSuccess(s -> {
          service.set(s);
          LOG.info("route registry reloaded: {} chains, {} assets", s.registry().chains().size(), s.registry().assets().size());
        })
        .onFailure(e -> LOG.error("route registry reload failed, keeping the previous registry: {}", e.getMessage()));
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
