package dev.weft.api;

import dev.weft.bus.BridgePermissions;
import dev.weft.runtime.NodeContext;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.handler.sockjs.SockJSBridgeOptions;
import io.vertx.ext.web.handler.sockjs.SockJSHandler;
import io.vertx.ext.web.handler.sockjs.SockJSHandlerOptions;

/**
 * The live page at {@code /} (plain HTML + JS, no build step) and the SockJS event-bus bridge at {@code /eventbus}
 * it subscribes through: every indexed chain as {@code GET /chains} lists it ({@link ChainsApi}: height, lag, writer;
 * the page derives the rates), the newest blocks of one chain and transfer updates as they are published, and
 * resumable event subscriptions ({@link BridgeStreams}).
 */
public final class LiveApi implements ApiModule {
    private final NodeContext ctx;

    public LiveApi(NodeContext ctx) {
        this.ctx = ctx;
    }

    @Override
    public void mount(Router router) {
        router.get("/")
                .handler(rc -> rc.response()
                        .putHeader("content-type", "text/html; charset=utf-8")
                        .putHeader("cache-control", "no-cache")
                        .sendFile("live/index.html"));
        if (ctx.config().bridge().sockJs()) {
            SockJSHandler sockJs = SockJSHandler.create(
                    ctx.vertx(),
                    new SockJSHandlerOptions().setHeartbeatInterval(5000).setInsertJSESSIONID(false));
            router.route("/eventbus/*")
                    .handler(HttpGuards.sameOriginBridge(ctx.config().http()));
            router.route("/eventbus/*")
                    .subRouter(sockJs.bridge(
                            BridgePermissions.apply(
                                    new SockJSBridgeOptions().setPingTimeout(30_000),
                                    ctx.config().bridge().inboundRequests()),
                            // resumable event subscriptions (weft.events.subscribe): the same reader as /v1/events/ws
                            BridgeStreams.sockJs(ctx)));
        }
    }

    @Override
    public String openApiFragment() {
        return "openapi/live.json";
    }
}
