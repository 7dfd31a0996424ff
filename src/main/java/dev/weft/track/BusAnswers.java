package dev.weft.track;

import dev.weft.api.Responses;
import dev.weft.bus.BusError;
import io.vertx.core.Future;
import io.vertx.core.eventbus.Message;
import io.vertx.core.json.JsonObject;
import java.util.function.Function;

/** How the tracking APIs' bus consumers answer: the service's result, or its failure as the bus error of the service. */
final class BusAnswers {
    private BusAnswers() {}

    /** Replies to {@code m} with what {@code call} makes of the service (a BusError it throws is its answer too). */
    static <S> void answer(
            Message<JsonObject> m, Future<S> service, Function<S, Future<JsonObject>> call, String serviceName) {
        service.compose(s -> {
                    try {
                        return call.apply(s);
                    } catch (BusError e) {
                        return Future.failedFuture(e);
                    }
                })
                .onComplete(ar -> {
                    if (ar.succeeded()) m.reply(ar.result());
                    else Responses.serviceError(ar.cause(), serviceName).failTo(m);
                });
    }
}
