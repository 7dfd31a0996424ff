package dev.weft.devnet;

import dev.weft.runtime.NodeInfo;
import java.util.List;
import java.util.Optional;

/**
 * Where a running devnet's chains listen: the host its URLs use, the generated chain's endpoints and every chain's.
 * The devnet keeps it in the node's info ({@link #of(NodeInfo)}) for code sharing its JVM (tests, benches); the
 * product itself reads the same URLs only as configuration.
 */
public record DevnetEndpoints(String host, Chain generated, List<Chain> chains) {

    /** The node protocols of one devnet chain; {@code jsonRpcPort} is 0 on a chain without EVM JSON-RPC. */
    public record Chain(String chainId, int rpcPort, int restPort, int jsonRpcPort) {}

    public DevnetEndpoints {
        chains = List.copyOf(chains);
    }

    /** The endpoints of the devnet this node runs, or null when it runs none. */
    public static DevnetEndpoints of(NodeInfo info) {
        return info.attachment(DevnetEndpoints.class);
    }

    public Optional<Chain> chain(String chainId) {
        return chains.stream().filter(c -> c.chainId().equals(chainId)).findFirst();
    }

    public String url(int port) {
        return "http://" + host + ":" + port;
    }
}
