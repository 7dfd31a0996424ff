package dev.weft.bus;

import io.vertx.core.Handler;
import io.vertx.core.net.NetSocket;
import io.vertx.ext.eventbus.bridge.tcp.BridgeEvent;

/**
 * What the TCP bridge lets another area add to it (the API's resumable event subscriptions): every bridge event of
 * every connection, and each connection as it opens (the bridge raises no event of its own for that, nor for its
 * close). Created on the bridge verticle's event loop, where its connections run.
 */
public interface TcpBridgeHook extends Handler<BridgeEvent> {
    void connected(NetSocket socket);
}
