package dev.weft.route.live;

import dev.weft.bus.Addresses;
import dev.weft.chain.client.NodeHttp;
import dev.weft.config.NodeClientOptions;
import dev.weft.config.RouteConfig;
import dev.weft.route.registry.ChainEndpoints;
import dev.weft.route.registry.Registry;
import dev.weft.route.registry.SwapVenue;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.json.JsonObject;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps the market state fresh in the background, never on a request's path: at start it discovers every pool of each
 * live venue and the oracle's markets, then re-reads the pools (one batched view request per 98 pools) and the
 * prices (one request) every {@code route.pool_refresh} and at once when ingestion announces a new block of that
 * chain ({@code block indexed}), with at most one read of each kind in flight (a block arriving meanwhile asks for one
 * more read after it). Discovery runs again every {@value #REDISCOVER_EVERY} refreshes (new pairs, fee changes) and
 * after a failed read. Each completed read replaces the state and is handed to {@code onUpdate}; a failed read keeps
 * the previous state (which ages: quotes refuse it after {@code route.max_state_age}). Requests are bounded (two in
 * flight per chain, the configured timeout, two attempts). A feed whose reads fail backs off ({@link ReadFailures}:
 * the refresh interval doubled per failure in a row, up to {@link #RETRY_MAX}) and warns at the 1st, 2nd,
 * 4th, 8th… failure in a row, then says when it reads again.
 */
public final class MarketStateSource {
    private static final Logger LOG = LoggerFactory.getLogger(MarketStateSource.class);
    static final int REDISCOVER_EVERY = 30;
    /** The longest wait between reads of a feed whose reads fail (unless {@code route.pool_refresh} is longer). */
    static final Duration RETRY_MAX = Duration.ofSeconds(10);

    private final Vertx vertx;
    private final RouteConfig config;
    private final Consumer<MarketState> onUpdate;
    private final Clock clock;
    private final List<Feed> feeds = new ArrayList<>();
    private final List<NodeHttp> clients = new ArrayList<>();
    private MarketState state = MarketState.EMPTY;
    private long timer = -1;
    private MessageConsumer<JsonObject> blocks;
    private long refreshes;

    /** One thing read from a chain: a venue's pools or an oracle's prices. */
    private final class Feed {
        final String chainId;
        /** What it reads, for the log: a venue's pools or an oracle's prices, and the chain. */
        final String name;

        final InitiaDexReader dex;
        final ConnectPrices prices;
        InitiaDexReader.Discovery discovery;
        boolean discovered;
        boolean inFlight;
        boolean again;
        int sinceDiscovery;
        final ReadFailures failures = new ReadFailures(config.poolRefresh(), RETRY_MAX);

        Feed(String chainId, String name, InitiaDexReader dex, ConnectPrices prices) {
            this.chainId = chainId;
            this.name = name;
            this.dex = dex;
            this.prices = prices;
        }

        long requests() {
            return dex != null ? dex.requests() : prices.requests();
        }

        void read() {
            if (inFlight) {
                again = true;
                return;
            }
            // after failures, neither the refresh timer nor a new block starts a read before the backoff delay is over
            if (!failures.due(clock.millis())) return;
            inFlight = true;
            boolean discover = !discovered || sinceDiscovery >= REDISCOVER_EVERY;
            Future<Void> done = dex != null ? readDex(discover) : readPrices(discover);
            done.onComplete(ar -> {
                inFlight = false;
                if (ar.failed()) {
                    discovered = false;
                    long delay = failures.failed(clock.millis());
                    if (failures.worthWarning()) {
                        LOG.warn(
                                "{} not read (failure {} in a row; warned again at failure {}): {}; next read in {} ms",
                                name,
                                failures.inARow(),
                                2 * failures.inARow(),
                                ar.cause().getMessage(),
                                delay);
                    } else {
                        LOG.debug(
                                "{} not read (failure {} in a row): {}; next read in {} ms",
                                name,
                                failures.inARow(),
                                ar.cause().getMessage(),
                                delay);
                    }
                } else {
                    int failed = failures.succeeded();
                    if (failed > 0)
                        LOG.info(
                                "{} read again after {} failed {}",
                                name,
                                failed,
                                failed == 1 ? "read" : "reads in a row");
                }
                if (again) {
                    again = false;
                    read();
                }
            });
        }

        private Future<Void> readDex(boolean discover) {
            Future<InitiaDexReader.Discovery> d = discover
                    ? dex.discover().onSuccess(x -> {
                        discovery = x;
                        discovered = true;
                        sinceDiscovery = 0;
                    })
                    : Future.succeededFuture(discovery);
            return d.compose(dex::refresh).map(v -> {
                sinceDiscovery++;
                update(state.withVenue(v));
                return null;
            });
        }

        private Future<Void> readPrices(boolean discover) {
            Future<?> d = discover
                    ? prices.discover().onSuccess(x -> {
                        discovered = true;
                        sinceDiscovery = 0;
                    })
                    : Future.succeededFuture();
            return d.compose(x -> prices.refresh()).map(p -> {
                sinceDiscovery++;
                update(state.withPrices(p));
                return null;
            });
        }
    }

    public MarketStateSource(
            Vertx vertx, RouteConfig config, Registry registry, Clock clock, Consumer<MarketState> onUpdate) {
        this.vertx = vertx;
        this.config = config;
        this.onUpdate = onUpdate;
        this.clock = clock;
        NodeClientOptions opts = new NodeClientOptions(
                2, config.stateTimeout(), 2, Duration.ofMillis(200), Duration.ofSeconds(1), 3, Duration.ofSeconds(10));
        for (SwapVenue v : registry.venues()) {
            if (!v.live()) continue;
            List<String> urls = ChainEndpoints.rest(registry, v.chainId(), config.restUrls());
            if (urls.isEmpty()) {
                LOG.warn(
                        "venue {} on {}: no REST URL known (route.rest.{}), its swaps are not quoted",
                        v.name(),
                        v.chainId(),
                        v.chainId());
                continue;
            }
            NodeHttp http = client(urls, opts, "route-dex");
            feeds.add(new Feed(
                    v.chainId(),
                    "pool state of " + v.name() + " on " + v.chainId(),
                    new InitiaDexReader(http, v, registry, clock),
                    null));
        }
        for (String chain : registry.priceOracles()) {
            List<String> urls = ChainEndpoints.rest(registry, chain, config.restUrls());
            if (urls.isEmpty()) {
                LOG.warn("price oracle of {}: no REST URL known (route.rest.{}), no USD values from it", chain, chain);
                continue;
            }
            feeds.add(new Feed(
                    chain,
                    "oracle prices of " + chain,
                    null,
                    new ConnectPrices(client(urls, opts, "route-oracle"), registry)));
        }
    }

    private NodeHttp client(List<String> urls, NodeClientOptions opts, String api) {
        NodeHttp http = new NodeHttp(vertx, api, urls, opts);
        clients.add(http);
        return http;
    }

    /** Starts reading (on the calling verticle's context). */
    public void start() {
        if (feeds.isEmpty()) return;
        readAll();
        long every = config.poolRefresh().toMillis();
        timer = vertx.setPeriodic(every, every, id -> readAll());
        blocks = vertx.eventBus().consumer(Addresses.BLOCK_INDEXED, msg -> {
            String chain = msg.body() == null ? null : msg.body().getString("chain_id");
            for (Feed f : feeds) if (f.chainId.equals(chain)) f.read();
        });
    }

    private void readAll() {
        refreshes++;
        for (Feed f : feeds) f.read();
    }

    private void update(MarketState next) {
        state = next;
        onUpdate.accept(next);
    }

    public MarketState state() {
        return state;
    }

    /** HTTP requests made so far to read the market state (for the bench's requests per block). */
    public long requests() {
        long n = 0;
        for (Feed f : feeds) n += f.requests();
        return n;
    }

    /** Timer rounds so far. */
    public long refreshes() {
        return refreshes;
    }

    public Future<Void> stop() {
        if (timer >= 0) vertx.cancelTimer(timer);
        List<Future<Void>> closing = new ArrayList<>();
        if (blocks != null) closing.add(blocks.unregister());
        for (NodeHttp c : clients) closing.add(c.close());
        return Future.all(closing).mapEmpty();
    }
}
