package dev.weft.config;

import java.time.Duration;

/**
 * Block ingestion ({@code ingest.*}): how far fetching runs ahead, how many blocks one database transaction commits,
 * how node requests are retried, where an empty database starts and how often the head is polled once caught up.
 *
 * @param window            heights fetched ahead concurrently at first and at least
 * @param windowMax         the cap of the window as it adapts to the node's round trip (at most this many blocks held)
 * @param bufferedBytes     fetched blocks waiting for their commit stop new fetches beyond this many bytes (big blocks)
 * @param commitBlocks      most blocks committed in one database transaction during catch-up
 * @param commitTxs         most txs committed in one database transaction (a batch closes at whichever comes first)
 * @param maxRequests       in-flight HTTP requests per node API (CometBFT RPC, REST, JSON-RPC)
 * @param requestTimeout    timeout of one node request
 * @param retryAttempts     attempts of one node request (rotating URLs) before the height is retried as a whole
 * @param retryBase         first backoff delay; doubled per attempt, with jitter
 * @param retryMax          cap of the backoff delay (also of the height retry)
 * @param unhealthyAfter    consecutive failures after which a node URL is set aside
 * @param unhealthyFor      how long a URL stays set aside
 * @param startHeight       first height when the database is empty (later starts resume from the cursor); 0: the
 *                          node's earliest available block (a pruned node's {@code earliest_block_height}, else 1)
 * @param pollInterval      head polling interval once caught up
 * @param progressInterval  interval of the catch-up progress line
 */
public record IngestConfig(
        int window,
        int windowMax,
        long bufferedBytes,
        int commitBlocks,
        int commitTxs,
        int maxRequests,
        Duration requestTimeout,
        int retryAttempts,
        Duration retryBase,
        Duration retryMax,
        int unhealthyAfter,
        Duration unhealthyFor,
        long startHeight,
        Duration pollInterval,
        Duration progressInterval) {

    public static IngestConfig from(ConfigSource c) {
        return new IngestConfig(
                c.intValue("ingest.window", 96, 1, 10_000),
                c.intValue("ingest.window_max", 1_024, 1, 10_000),
                c.longValue("ingest.buffered_mb", 256, 1, 1 << 20) << 20,
                c.intValue("ingest.commit_blocks", 50, 1, 10_000),
                c.intValue("ingest.commit_txs", 5_000, 1, 1_000_000),
                c.intValue("ingest.max_requests", 512, 1, 1_000),
                c.duration("ingest.request_timeout", Duration.ofSeconds(30)),
                c.intValue("ingest.retry_attempts", 5, 1, 1_000),
                c.duration("ingest.retry_base", Duration.ofMillis(200)),
                c.duration("ingest.retry_max", Duration.ofSeconds(30)),
                c.intValue("ingest.unhealthy_after", 3, 1, 1_000),
                c.duration("ingest.unhealthy_for", Duration.ofMinutes(1)),
                c.longValue("ingest.start_height", 0, 0, Long.MAX_VALUE),
                c.duration("ingest.poll_interval", Duration.ofMillis(500)),
                c.duration("ingest.progress_interval", Duration.ofSeconds(10)));
    }

    /** The options of the node clients ingestion uses. */
    public NodeClientOptions clientOptions() {
        return new NodeClientOptions(
                maxRequests, requestTimeout, retryAttempts, retryBase, retryMax, unhealthyAfter, unhealthyFor);
    }
}
