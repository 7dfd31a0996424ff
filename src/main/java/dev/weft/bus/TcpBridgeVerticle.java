package dev.weft.bus;

import dev.weft.runtime.NodeContext;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.ext.bridge.BridgeOptions;
import io.vertx.ext.eventbus.bridge.tcp.TcpEventBusBridge;

/**
 * The TCP event-bus bridge (frames: 4-byte big-endian length + JSON {type, address, body, ...}) for backends that
 * subscribe to updates without HTTP. Permissions: {@link BridgePermissions}.
 */
public final class TcpBridgeVerticle extends VerticleBase {
  private final NodeContext ctx;
  private TcpEventBusBridge bridge;

  public TcpBridgeVerticle(NodeContext ctx) {
    this.ctx = ctx;
  }

  @Override
  public Future<?> start() {
    if (!ctx.config().bridge().tcp()) return Future.succeededFuture();
    bridge = TcpEventBusBridge.create(vertx, BridgePermissions.apply(new BridgeOptions()));
    String host = ctx.config().bridge().tcpHost();
    // the bridge does not report the port it bound, so port 0 is resolved to a free port first
    int port = ctx.config().bridge().tcpPort() > 0 ? ctx.config().bridge().tcpPort() : freePort(host);
    return bridge.listen(port, host).onSuccess(b -> {
      ctx.info().bridgeTcp(port, "tcp://" + host + ":" + port + " (event-bus bridge: weft.updates.*)");
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
