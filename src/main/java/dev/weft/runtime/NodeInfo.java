package dev.weft.runtime;

import java.util.List;
import java.util.Map;

/**
 * Facts a running node learns while starting: the ports it actually bound, the database it uses and what its plugins
 * report. The start banner prints them.
 */
public final class NodeInfo {
    private volatile String database;
    private volatile int httpPort;
    private volatile int adminPort;
    private volatile String bridgeTcp;
    private volatile int bridgeTcpPort;
    private final List<String> pluginBanner = new java.util.concurrent.CopyOnWriteArrayList<>();
    private final Map<Class<?>, Object> attachments = new java.util.concurrent.ConcurrentHashMap<>();

    /** A description of the database (embedded or external) for the banner, or null on nodes without one. */
    public String database() {
        return database;
    }

    public void database(String description) {
        this.database = description;
    }

    /** The HTTP API's bound port, 0 until it listens. */
    public int httpPort() {
        return httpPort;
    }

    public void httpPort(int port) {
        this.httpPort = port;
    }

    /** The admin API's own listener's port ({@code admin.port}), 0 when it has none. */
    public int adminPort() {
        return adminPort;
    }

    public void adminPort(int port) {
        this.adminPort = port;
    }

    /** The TCP bridge's bound port, 0 when it does not run. */
    public int bridgeTcpPort() {
        return bridgeTcpPort;
    }

    /** The TCP bridge's banner line, or null when it does not run. */
    public String bridgeTcp() {
        return bridgeTcp;
    }

    public void bridgeTcp(int port, String description) {
        this.bridgeTcpPort = port;
        this.bridgeTcp = description;
    }

    /** Banner lines of the node's plugins, in the order they started. */
    public List<String> pluginBanner() {
        return List.copyOf(pluginBanner);
    }

    public void addPluginBanner(List<String> lines) {
        pluginBanner.addAll(lines);
    }

    /**
     * What a plugin keeps about itself for whoever shares this node's JVM and knows its type (tests find the devnet's
     * endpoints here), and what a layer above {@code runtime} shares with another by a type both know (the store's read
     * replicas, which {@code /status} shows).
     */
    public <T> T attachment(Class<T> type) {
        return type.cast(attachments.get(type));
    }

    public <T> void attach(Class<T> type, T value) {
        attachments.put(type, value);
    }
}
