package dev.weft.config;

import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * The {@code track.*} section: how often the tracker polls, how much a poll may fetch, when it gives up on a transfer,
 * and where each chain's CometBFT RPC is.
 *
 * @param pollInterval     a poll cycle starts this long after the previous one started (or at once when it took longer,
 *                         or when a scan stopped below its chain's head)
 * @param stallTimeout     a transfer without progress for this long is ABANDONED
 * @param maxBlocksPerPoll most blocks of one chain scanned per cycle (a tracker that fell behind catches up over cycles,
 *                         run back to back)
 * @param pageSize         {@code per_page} of {@code tx_search} (CometBFT allows at most 100)
 * @param maxPagesPerPoll  most pages of txs one chain's scan reads per cycle (the range is cut at a block boundary)
 * @param maxInFlight      requests in flight per chain node whose URL comes from the chain registry (someone else's
 *                         public node)
 * @param ownMaxInFlight   requests in flight per chain node the operator named ({@code track.nodes}, the indexed chain's
 *                         {@code chain.rpc}) or the local devnet: what a scan far behind its chain may use to catch up
 * @param scanWindow       spans of 20 blocks a chain's scans read ahead at first and at least, while the chain's head is
 *                         beyond them (the window then adapts to the node's round trip and the tracker's pace)
 * @param scanAheadBytes   most estimated heap of the txs a chain's scans read ahead (loading or held): the memory cap of
 *                         the read-ahead ({@code track.scan_ahead_mb})
 * @param lookupsPerPoll   most one-off searches per cycle (newly tracked hashes, catch-up searches for old packets)
 * @param lookbackBlocks   how many recent blocks of a chain the tracker indexes by tx hash (read back once when it
 *                         starts following the chain, then kept by its scans): a newly tracked hash is looked up there,
 *                         costing no node request of its own
 * @param requestTimeout   timeout of one node request
 * @param nodes            chain id → CometBFT RPC URLs (an EVM chain's: its JSON-RPC URLs); chains not listed use the
 *                         registry's {@code apis.rpc} ({@code apis.json_rpc}), then the local devnet's ports
 * @param unknownTtl       a tracked hash never seen on its chain is ABANDONED after this long
 * @param maxOpen          most transfers tracked at once (SUBMITTED, PENDING, PENDING_ERROR); new registrations beyond
 *                         are refused with 503
 * @param registrationsPerClient most new registrations ({@code /v2/tx/track}, {@code /v2/tx/submit}) per client address
 *                         and minute on one API instance; 429 beyond
 * @param watchMaxPerClient most watched addresses ({@code /v2/watch}) per client address; 429 beyond
 * @param watchMaxTotal    most watched addresses of all clients together; 429 beyond
 */
public record TrackConfig(
        Duration pollInterval,
        Duration stallTimeout,
        int maxBlocksPerPoll,
        int pageSize,
        int maxPagesPerPoll,
        int maxInFlight,
        int ownMaxInFlight,
        int scanWindow,
        long scanAheadBytes,
        int lookupsPerPoll,
        int lookbackBlocks,
        Duration requestTimeout,
        Map<String, List<String>> nodes,
        Duration unknownTtl,
        int maxOpen,
        int registrationsPerClient,
        int watchMaxPerClient,
        int watchMaxTotal) {

    public static TrackConfig from(ConfigSource c) {
        Duration poll = c.duration("track.poll_interval", Duration.ofSeconds(1));
        if (poll.toMillis() < 10) throw new ConfigException("track.poll_interval", "must be at least 10ms");
        Duration stall = c.duration("track.stall_timeout", Duration.ofMinutes(10));
        if (stall.toMillis() < 100) throw new ConfigException("track.stall_timeout", "must be at least 100ms");
        Duration timeout = c.duration("track.request_timeout", Duration.ofSeconds(10));
        if (timeout.toMillis() < 100) throw new ConfigException("track.request_timeout", "must be at least 100ms");
        return new TrackConfig(
                poll,
                stall,
                c.intValue("track.max_blocks_per_poll", 200, 1, 100_000),
                c.intValue("track.page_size", 100, 1, 100),
                c.intValue("track.max_pages_per_poll", 50, 1, 10_000),
                c.intValue("track.max_in_flight", 8, 1, 1024),
                c.intValue("track.own_max_in_flight", 512, 1, 1024),
                c.intValue("track.scan_window", 512, 1, 10_000),
                c.intValue("track.scan_ahead_mb", 64, 1, 64 * 1024) * 1024L * 1024L,
                c.intValue("track.lookups_per_poll", 200, 1, 100_000),
                c.intValue("track.lookback_blocks", 600, 0, 100_000),
                timeout,
                c.urlsByChain("track.nodes"),
                unknownTtl(c),
                c.intValue("track.max_open", 10_000, 1, 10_000_000),
                c.intValue("track.registrations_per_client", 120, 1, 1_000_000),
                c.intValue("track.watch.max_per_client", 100, 1, 1_000_000),
                c.intValue("track.watch.max_total", 10_000, 1, 10_000_000));
    }

    private static Duration unknownTtl(ConfigSource c) {
        Duration ttl = c.duration("track.unknown_ttl", Duration.ofMinutes(10));
        if (ttl.toMillis() < 100) throw new ConfigException("track.unknown_ttl", "must be at least 100ms");
        return ttl;
    }
}
