package dev.weft.config;

/** Event-bus bridges for outside subscribers: SockJS at /eventbus on the API server, and a TCP bridge. */
public record BridgeConfig(boolean sockJs, boolean tcp, String tcpHost, int tcpPort) {
  static BridgeConfig from(ConfigSource c) {
    return new BridgeConfig(
        c.bool("bridge.sockjs_enabled", true),
        c.bool("bridge.tcp_enabled", true),
        c.string("bridge.tcp_host", "127.0.0.1"),
        c.intValue("bridge.tcp_port", 7000, 0, 65535));
  }
}
