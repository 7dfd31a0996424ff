package dev.weft.wallet;

import dev.weft.api.ApiModule;
import dev.weft.api.HttpApiVerticle;
import dev.weft.api.Responses;
import dev.weft.api.StrictJson;
import dev.weft.bus.Addresses;
import dev.weft.bus.BusError;
import dev.weft.runtime.NodeContext;
import dev.weft.store.TransferStore;
import dev.weft.track.RegistrationQuota;
import dev.weft.track.TrackChains;
import dev.weft.track.TrackService;
import dev.weft.track.TrackingApi;
import io.vertx.core.Future;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.Message;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import java.util.function.BiFunction;

/**
 * What a wallet needs besides routes: {@code POST /v2/info/balances} and {@code POST /v2/tx/submit} (Skip's client
 * calls both from {@code executeRoute}). The handlers forward the JSON body over the event bus
 * ({@link Addresses#WALLET_BALANCES}, {@link Addresses#WALLET_SUBMIT}); every API instance answers them with its own
 * node clients ({@link ChainGateway}); submit also needs the database to register the tx for tracking.
 */
public final class WalletApi implements ApiModule {
    private static final String SERVICE = "wallet gateway";
    private static final DeliveryOptions DELIVERY = new DeliveryOptions().setSendTimeout(15_000);

    private final NodeContext ctx;
    private final RegistrationQuota quota;
    private Future<Services> services;

    private record Services(BalanceService balances, SubmitService submit) {}

    public WalletApi(NodeContext ctx) {
        this.ctx = ctx;
        this.quota = new RegistrationQuota(ctx.config().track().registrationsPerClient(), System::currentTimeMillis);
    }

    @Override
    public void mount(Router router) {
        router.post("/v2/info/balances")
                .handler(HttpApiVerticle.bodyHandler(ctx))
                .handler(rc -> forward(rc, Addresses.WALLET_BALANCES));
        router.post("/v2/tx/submit").handler(HttpApiVerticle.bodyHandler(ctx)).handler(rc -> {
            if (TrackingApi.withinQuota(rc, quota)) forward(rc, Addresses.WALLET_SUBMIT);
        });
        ctx.vertx()
                .eventBus()
                .<JsonObject>consumer(
                        Addresses.WALLET_BALANCES,
                        m -> answer(m, (s, b) -> s.balances().balances(b)));
        if (ctx.pool() != null) {
            ctx.vertx()
                    .eventBus()
                    .<JsonObject>consumer(
                            Addresses.WALLET_SUBMIT,
                            m -> answer(m, (s, b) -> s.submit().submit(b)));
        }
    }

    @Override
    public String openApiFragment() {
        return "openapi/wallet.json";
    }

    private void forward(RoutingContext rc, String address) {
        Responses.forward(rc, ctx.vertx().eventBus(), address, StrictJson.object(rc), DELIVERY, SERVICE);
    }

    private void answer(Message<JsonObject> m, BiFunction<Services, JsonObject, Future<JsonObject>> call) {
        services()
                .compose(s -> {
                    try {
                        return call.apply(s, m.body());
                    } catch (BusError e) {
                        return Future.failedFuture(e);
                    }
                })
                .onComplete(ar -> {
                    if (ar.succeeded()) m.reply(ar.result());
                    else Responses.serviceError(ar.cause(), SERVICE).failTo(m);
                });
    }

    /** The services, built once per API instance (loading the registries is file IO: off the event loop). */
    private Future<Services> services() {
        if (services == null) {
            services = ctx.vertx().executeBlocking(() -> {
                TrackChains chains = TrackChains.load(ctx.config());
                ChainGateway gateway = new ChainGateway(ctx.vertx(), chains);
                SubmitService submit = ctx.pool() == null
                        ? null
                        : new SubmitService(
                                gateway,
                                new TrackService(
                                        new TransferStore(ctx.pool()),
                                        chains,
                                        ctx.vertx().eventBus(),
                                        ctx.config().track().maxOpen()));
                return new Services(new BalanceService(gateway), submit);
            });
            services.onFailure(e -> services = null);
        }
        return services;
    }
}
