package dev.weft.runtime;

import java.util.List;
import java.util.Optional;

/**
 * Facts a running node learns while starting: the ports it actually bound, the database it uses and the devnet's
 * endpoints. The start banner prints them; the wiring and the tracker read the devnet's endpoints from here.
 */
public final class NodeInfo {
    /** The node protocols of one devnet chain; {@code jsonRpcPort} is 0 on a chain without EVM JSON-RPC. */
    public record DevnetChain(String chainId, int rpcPort, int restPort, int jsonRpcPort) {}

    /**
     * The devnet this node runs: the host its URLs use, a description of the generated chain for the banner, the
     * generated chain's endpoints and every chain's.
     */
    public record Devnet(String host, String description, DevnetChain generated, List<DevnetChain> chains) {
        public Devnet {
            chains = List.copyOf(chains);
        }

        public Optional<DevnetChain> chain(String chainId) {
            return chains.stream().filter(c -> c.chainId().equals(chainId)).findFirst();
        }

        public String url(int port) {
            return "http://" + host + ":" + port;
        }
    }

    private volatile String database;
    private volatile int httpPort;
    private volatile int adminPort;
    private volatile String bridgeTcp;
    private volatile int bridgeTcpPort;
    private volatile Devnet devnet;

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

    /** The devnet's endpoints, or null when this node runs no devnet. */
    public Devnet devnet() {
        return devnet;
    }

    public void devnet(Devnet endpoints) {
        this.devnet = endpoints;
    }
}
