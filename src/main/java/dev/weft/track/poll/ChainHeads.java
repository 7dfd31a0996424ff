package dev.weft.track.poll;

import dev.weft.chain.client.EvmRpcClient;
import dev.weft.config.TrackConfig;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * The head of a chain as a watch is made ({@code POST /v2/watch}): the last height of its CometBFT RPC
 * ({@code /blockchain}), or {@code eth_blockNumber} on an EVM chain. A transfer broadcast after the answer is in a
 * later block, so the tracker looks for the watch's transfers from that height on, whatever the chain's block times
 * (which may lag the database's clock). Bounded: within {@code track.request_timeout}, at most 5 s (the POST waits for
 * it); null when the head cannot be read (the watch then falls back to its creation time). The watch API asks
 * it for EVM chains and the chains this deployment does not index (an indexed Cosmos chain's head is its ingest
 * cursor): one client set per API instance, each bounded in flight, on that instance's event loop.
 */
public final class ChainHeads {
    private final RpcClients cosmos;
    private final EvmClients evm;
    private final Predicate<String> isEvm;
    private final long timeoutMs;

    public ChainHeads(
            Vertx vertx,
            Function<String, List<String>> rpcUrls,
            Predicate<String> ownRpc,
            Function<String, List<String>> evmUrls,
            Predicate<String> isEvm,
            TrackConfig config) {
        this.cosmos = new RpcClients(vertx, rpcUrls, ownRpc, config);
        this.evm = new EvmClients(vertx, evmUrls, RpcClients.options(config, config.maxInFlight()));
        this.isEvm = isEvm;
        this.timeoutMs = Math.min(5_000, config.requestTimeout().toMillis());
    }

    /** The chain's head height, or null when it has no node known or the node did not answer in time. */
    public Future<Long> head(String chainId) {
        Future<Long> read;
        if (isEvm.test(chainId)) {
            EvmRpcClient c = evm.client(chainId);
            if (c == null) return Future.succeededFuture(null);
            read = c.blockNumber();
        } else {
            ChainRpc rpc = cosmos.of(chainId);
            if (rpc == null) return Future.succeededFuture(null);
            read = rpc.blockchain(0, 0).map(r -> r.path("last_height").asLong());
        }
        return read.timeout(timeoutMs, TimeUnit.MILLISECONDS)
                .map(h -> h != null && h > 0 ? h : null)
                .otherwise((Long) null);
    }
}
