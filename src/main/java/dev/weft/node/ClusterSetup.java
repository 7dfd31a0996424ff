package dev.weft.node;

import com.hazelcast.config.Config;
import com.hazelcast.config.FileSystemXmlConfig;
import com.hazelcast.config.JoinConfig;
import com.hazelcast.config.NetworkConfig;
import dev.weft.config.ClusterConfig;
import dev.weft.config.ConfigException;
import io.vertx.spi.cluster.hazelcast.ConfigUtil;
import java.io.FileNotFoundException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** Builds the Hazelcast configuration of a clustered node from {@code cluster/cluster.xml} and the cluster keys. */
public final class ClusterSetup {
    private ClusterSetup() {}

    public static Config hazelcastConfig(ClusterConfig c) {
        Config hz;
        Path file = Path.of(c.configFile());
        if (Files.exists(file)) {
            try {
                hz = new FileSystemXmlConfig(file.toFile());
            } catch (FileNotFoundException | RuntimeException e) {
                throw new ConfigException(
                        "cluster.config", "cannot read Hazelcast configuration " + file + ": " + e.getMessage());
            }
        } else {
            hz = ConfigUtil.loadConfig();
        }
        if (c.name() != null) hz.setClusterName(c.name());
        NetworkConfig net = hz.getNetworkConfig();
        net.getInterfaces().setEnabled(true).setInterfaces(List.of(c.host()));
        if (c.port() > 0) net.setPort(c.port()).setPortAutoIncrement(false);
        hz.setProperty("hazelcast.phone.home.enabled", "false");
        hz.setProperty("hazelcast.shutdownhook.enabled", "false");
        return hz;
    }

    /** A loopback TCP-IP configuration with explicit ports, for tests and scripts that pick free ports. */
    public static Config loopback(String clusterName, int port, List<Integer> memberPorts) {
        Config hz = ConfigUtil.loadConfig();
        hz.setClusterName(clusterName);
        hz.setProperty("hazelcast.phone.home.enabled", "false");
        hz.setProperty("hazelcast.shutdownhook.enabled", "false");
        hz.setProperty("hazelcast.wait.seconds.before.join", "0");
        hz.setProperty("hazelcast.partition.count", "31");
        NetworkConfig net = hz.getNetworkConfig();
        net.setPort(port).setPortAutoIncrement(false);
        net.getInterfaces().setEnabled(true).setInterfaces(List.of("127.0.0.1"));
        JoinConfig join = net.getJoin();
        join.getMulticastConfig().setEnabled(false);
        join.getAutoDetectionConfig().setEnabled(false);
        join.getTcpIpConfig()
                .setEnabled(true)
                .setConnectionTimeoutSeconds(1)
                .setMembers(memberPorts.stream().map(p -> "127.0.0.1:" + p).toList());
        return hz;
    }
}
