package dev.weft.node;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.hazelcast.config.Config;
import dev.weft.config.ClusterConfig;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class ClusterSetupTest {

    private static Config load(String file, String host, int port) {
        return ClusterSetup.hazelcastConfig(
                new ClusterConfig(true, host, file, port, null, Duration.ofSeconds(1), true));
    }

    @Test
    @DisplayName("cluster/cluster.xml: TCP-IP on loopback, no multicast or auto-detection, the Vert.x structures kept")
    void localConfig() {
        Config hz = load("cluster/cluster.xml", "127.0.0.1", 0);
        var join = hz.getNetworkConfig().getJoin();
        assertTrue(join.getTcpIpConfig().isEnabled());
        assertFalse(join.getMulticastConfig().isEnabled());
        assertFalse(join.getAutoDetectionConfig().isEnabled());
        assertEquals(
                List.of("127.0.0.1:5701", "127.0.0.1:5702", "127.0.0.1:5703", "127.0.0.1:5704", "127.0.0.1:5705"),
                join.getTcpIpConfig().getMembers());
        assertEquals(
                List.of("127.0.0.1"),
                List.copyOf(hz.getNetworkConfig().getInterfaces().getInterfaces()));
        assertEquals(1, hz.getMultiMapConfig("__vertx.subs").getBackupCount());
        assertEquals("weft-local", hz.getClusterName());
    }

    @Test
    @DisplayName("the real-hosts template parses; host, port and name come from the cluster keys")
    void hostsTemplate() {
        Config hz = load("cluster/cluster-hosts.xml", "10.0.0.2", 5801);
        assertEquals(
                List.of("10.0.0.2"),
                List.copyOf(hz.getNetworkConfig().getInterfaces().getInterfaces()));
        assertEquals(5801, hz.getNetworkConfig().getPort());
        assertFalse(hz.getNetworkConfig().isPortAutoIncrement());
        assertEquals(
                3, hz.getNetworkConfig().getJoin().getTcpIpConfig().getMembers().size());
    }
}
