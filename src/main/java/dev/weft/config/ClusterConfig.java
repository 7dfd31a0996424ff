package dev.weft.config;

/**
 * Hazelcast clustering: off unless {@code --cluster}; host is the loopback or LAN address other nodes reach. A standby
 * of a single-writer role retries its lease every {@code standby_poll}. The admin endpoints (hot scaling, node view)
 * can be switched off.
 */
public record ClusterConfig(
        boolean enabled,
        String host,
        String configFile,
        int port,
        String name,
        java.time.Duration standbyPoll,
        boolean adminEnabled) {
    static ClusterConfig from(ConfigSource c) {
        return new ClusterConfig(
                c.bool("cluster.enabled", false),
                c.string("cluster.host", "127.0.0.1"),
                c.string("cluster.config", "cluster/cluster.xml"),
                c.intValue("cluster.port", 0, 0, 65535),
                c.optionalString("cluster.name"),
                c.duration("cluster.standby_poll", java.time.Duration.ofSeconds(1)),
                c.bool("cluster.admin_enabled", true));
    }
}
