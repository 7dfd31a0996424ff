package dev.weft.config;

/**
 * Event-bus bridges for outside subscribers: SockJS at /eventbus on the API server, and a TCP bridge whose frames may
 * announce at most {@code tcpMaxFrameBytes}. Both are subscribe-only unless {@code inboundRequests}.
 */
public record BridgeConfig(
        boolean sockJs, boolean tcp, String tcpHost, int tcpPort, int tcpMaxFrameBytes, boolean inboundRequests) {
    static BridgeConfig from(ConfigSource c) {
        return new BridgeConfig(
                c.bool("bridge.sockjs_enabled", true),
                c.bool("bridge.tcp_enabled", true),
                c.string("bridge.tcp_host", "127.0.0.1"),
                c.intValue("bridge.tcp_port", 7000, 0, 65535),
                c.intValue("bridge.tcp_max_frame_bytes", 64 * 1024, 256, 16 << 20),
                c.bool("bridge.inbound_requests", false));
    }
}
