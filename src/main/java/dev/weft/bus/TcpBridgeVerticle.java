package dev.weft.bus;

import dev.weft.runtime.Listening;
import dev.weft.runtime.NodeContext;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.VerticleBase;
import io.vertx.core.internal.net.NetSocketInternal;
import io.vertx.core.net.NetServer;
import io.vertx.core.net.NetSocket;
import io.vertx.ext.bridge.BridgeOptions;
import io.vertx.ext.eventbus.bridge.tcp.TcpEventBusBridge;

/**
 * The TCP event-bus bridge (frames: 4-byte big-endian length + JSON {type, address, body, ...}) for backends that
 * subscribe to updates without HTTP. Permissions: {@link BridgePermissions}. Frames longer than
 * {@code bridge.tcp_max_frame_bytes} close the connection before they are buffered ({@link FrameLimit}).
 */
public final class TcpBridgeVerticle extends VerticleBase {
    private final NodeContext ctx;
    private final java.util.function.Function<NodeContext, TcpBridgeHook> hooks;
    private TcpEventBusBridge bridge;

    public TcpBridgeVerticle(NodeContext ctx) {
        this(ctx, null);
    }

    /** @param hooks makes the bridge's hook, on this verticle's event loop (null: none) */
    public TcpBridgeVerticle(NodeContext ctx, java.util.function.Function<NodeContext, TcpBridgeHook> hooks) {
        this.ctx = ctx;
        this.hooks = hooks;
    }

    @Override
    public Future<?> start() {
        if (!ctx.config().bridge().tcp()) return Future.succeededFuture();
        TcpBridgeHook hook = hooks == null ? null : hooks.apply(ctx);
        bridge = TcpEventBusBridge.create(
                vertx,
                BridgePermissions.apply(
                        new BridgeOptions(), ctx.config().bridge().inboundRequests()),
                new io.vertx.core.net.NetServerOptions(),
                hook);
        limitFrames(bridge, ctx.config().bridge().tcpMaxFrameBytes(), hook);
        String host = ctx.config().bridge().tcpHost();
        // the bridge does not report the port it bound, so port 0 is resolved to a free port first
        int port = ctx.config().bridge().tcpPort() > 0 ? ctx.config().bridge().tcpPort() : freePort(host);
        return Listening.named(bridge.listen(port, host), "bridge.tcp_port", host, port)
                .onSuccess(b -> {
                    ctx.info().bridgeTcp(port, "tcp://" + host + ":" + port + " (event-bus bridge: weft.updates.*)");
                });
    }

    /**
     * Puts {@link FrameLimit} in front of the bridge's frame parser on every connection. The bridge creates its net
     * server privately and offers no hook at connection time (vert-x3/vertx-tcp-eventbus-bridge,
     * TcpEventBusBridgeImpl), so its connect handler is wrapped through that field.
     */
    @SuppressWarnings("unchecked")
    private static void limitFrames(TcpEventBusBridge bridge, int maxFrameBytes, TcpBridgeHook hook) {
        NetServer server;
        try {
            java.lang.reflect.Field f = bridge.getClass().getDeclaredField("server");
            f.setAccessible(true);
            server = (NetServer) f.get(bridge);
        } catch (ReflectiveOperationException | RuntimeException e) {
            throw new IllegalStateException(
                    "cannot limit the TCP bridge's frame size on this vertx-tcp-eventbus-bridge version", e);
        }
        Handler<NetSocket> parse = server.connectHandler();
        server.connectHandler(socket -> {
            if (socket instanceof NetSocketInternal s) {
                s.channelHandlerContext().pipeline().addFirst("weft-frame-limit", new FrameLimit(maxFrameBytes));
            } else {
                socket.close();
                return;
            }
            if (hook != null) hook.connected(socket);
            parse.handle(socket);
        });
    }

    private static int freePort(String host) {
        try (java.net.ServerSocket s = new java.net.ServerSocket(0, 1, java.net.InetAddress.getByName(host))) {
            return s.getLocalPort();
        } catch (java.io.IOException e) {
            throw new IllegalStateException("no free port for the TCP bridge on " + host, e);
        }
    }

    @Override
    public Future<?> stop() {
        return bridge == null ? Future.succeededFuture() : bridge.close();
    }
}
