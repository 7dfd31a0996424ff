package dev.weft.api;

import dev.weft.bus.BusError;
import dev.weft.runtime.JsonBytes;
import dev.weft.store.RequestValueRefused;
import io.netty.buffer.ByteBufAllocator;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.EventBus;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Writing JSON bodies and failures the same way everywhere. */
public final class Responses {
    private static final Logger LOG = LoggerFactory.getLogger(Responses.class);

    private Responses() {}

    public static void json(RoutingContext rc, int status, JsonObject body) {
        json(rc, status, JsonBytes.encode(body));
    }

    public static void json(RoutingContext rc, JsonObject body) {
        json(rc, 200, body);
    }

    public static void json(RoutingContext rc, Buffer body) {
        json(rc, 200, body);
    }

    private static void json(RoutingContext rc, int status, Buffer body) {
        HttpServerResponse response = rc.response().setStatusCode(status).putHeader("content-type", "application/json");
        // Vert.x sends no content-length with a HEAD answer; the length GET would send is what HEAD asks for, and the
        // body,
        // which HEAD does not send, is not copied for the socket
        if (HttpGuards.isHead(rc))
            response.putHeader("content-length", Integer.toString(body.length()))
                    .end();
        else DirectBody.end(response, body, ByteBufAllocator.DEFAULT);
    }

    /** Completes the request with the future's JSON, or routes its failure to the error handler. */
    public static void reply(RoutingContext rc, Future<JsonObject> f) {
        f.onComplete(ar -> {
            if (ar.succeeded()) json(rc, ar.result());
            else rc.fail(ar.cause());
        });
    }

    /**
     * Forwards a request to a service on the event bus and answers with its JSON reply, or with its {@link BusError}
     * (an absent or silent service becomes a 503 naming {@code service}).
     */
    public static void forward(
            RoutingContext rc,
            EventBus bus,
            String address,
            JsonObject body,
            DeliveryOptions delivery,
            String service) {
        reply(rc, BusError.request(bus, address, body, delivery, service));
    }

    /**
     * {@link #forward} to a service that replies with its JSON already encoded (the request asks for it with the
     * {@code Addresses.REPLY_FORMAT} header in {@code delivery}): the bytes are written as they are.
     */
    public static void forwardEncoded(
            RoutingContext rc,
            EventBus bus,
            String address,
            JsonObject body,
            DeliveryOptions delivery,
            String service) {
        bus.request(address, body, delivery).onComplete(ar -> {
            if (ar.failed()) {
                rc.fail(BusError.fromBus(ar.cause(), service));
            } else if (ar.result().body() instanceof Buffer encoded) {
                json(rc, encoded);
            } else if (ar.result().body() instanceof JsonObject object) {
                json(rc, object); // a service that does not know the header (an older node of the cluster)
            } else {
                rc.fail(BusError.internal());
            }
        });
    }

    /**
     * The error a service on the bus answers for {@code t}: itself when a BusError, a 400 when the database refused one of
     * the request's values (logged at WARN, see {@link RequestValueRefused}), else an internal error.
     */
    public static BusError serviceError(Throwable t, String service) {
        if (t instanceof BusError e) return e;
        String state = RequestValueRefused.sqlState(t);
        if (state == null) return BusError.internal();
        LOG.warn("{} request refused by the database: {}", service, t.toString());
        return BusError.badRequest(RequestValueRefused.message(state));
    }

    public static void error(RoutingContext rc, BusError e) {
        if (rc.response().ended()) return;
        if (rc.response().headWritten()) {
            rc.response().reset();
            return;
        }
        json(rc, e.httpStatus(), e.toJson());
    }
}
