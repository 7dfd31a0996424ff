package dev.weft.ingest;

import com.fasterxml.jackson.databind.JsonNode;
import dev.weft.chain.AccountAddress;
import dev.weft.chain.client.Backoff;
import dev.weft.chain.client.CometRpcClient;
import dev.weft.chain.client.CosmosRestClient;
import dev.weft.chain.client.EvmRpcClient;
import dev.weft.chain.client.NodeException;
import dev.weft.chain.model.BlockReceipt;
import dev.weft.chain.model.BlockResults;
import dev.weft.chain.model.NodeJson;
import dev.weft.chain.model.RestTx;
import dev.weft.chain.model.Rfc3339;
import dev.weft.config.ChainConfig;
import dev.weft.config.ConfigException;
import dev.weft.config.IngestConfig;
import dev.weft.model.ingest.IndexedBlock;
import dev.weft.model.nft.NftEvent;
import dev.weft.nft.NftMetadata;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Chooses where an empty database starts, and fetches everything of one height concurrently (CometBFT {@code /block}
 * and {@code /block_results}, REST decoded txs, and {@code eth_getBlockReceipts} on EVM chains, plus the proposer once
 * per proposer, and for the first block the header before it), assembles the block on a
 * worker thread, then reads the metadata its NFT changes need (names, token URIs) at that height. The REST txs are paged and re-asked with backoff until every raw tx has its decoded twin
 * (rollytics#52: a node may answer short or end pagination early); what one answer lacked another may bring.
 */
public final class BlockFetcher {
    private static final Logger LOG = LoggerFactory.getLogger(BlockFetcher.class);

    private final Vertx vertx;
    private final CometRpcClient rpc;
    private final CosmosRestClient rest;
    private final EvmRpcClient evm;
    private final ProposerResolver proposers;
    private final BlockAssembler assembler;
    private final NftMetadata nftMetadata;
    private final MoveStoreOwners moveStoreOwners;
    private final IngestConfig cfg;
    /** The height an empty database starts at, once chosen ({@link #startHeight}): its block reads the header before it. */
    private volatile long firstHeight = -1;
    /** The lowest height the node has (a pruned node's {@code earliest_block_height}). */
    private volatile long earliest = 1;
    /**
     * The share of recent blocks with txs (a moving average, updated on the event loop as blocks are decoded). At or above
     * {@link #EARLY_REST_SHARE} a height's REST txs are asked together with its block: against a far node that saves a
     * round trip per height, at the price of one REST request for each empty block, so a mostly idle chain does not.
     */
    private double withTxsShare = 1;

    private static final double EARLY_REST_SHARE = 0.5;
    private static final double SHARE_WEIGHT = 0.05;

    /**
     * @param evm             the EVM client, or null on chains without an EVM
     * @param moveStoreOwners the Move store owners' resolver, or null off Move chains
     */
    public BlockFetcher(
            Vertx vertx,
            CometRpcClient rpc,
            CosmosRestClient rest,
            EvmRpcClient evm,
            ProposerResolver proposers,
            BlockAssembler assembler,
            NftMetadata nftMetadata,
            MoveStoreOwners moveStoreOwners,
            IngestConfig cfg) {
        this.vertx = vertx;
        this.rpc = rpc;
        this.rest = rest;
        this.evm = evm;
        this.proposers = proposers;
        this.assembler = assembler;
        this.nftMetadata = nftMetadata;
        this.moveStoreOwners = moveStoreOwners;
        this.cfg = cfg;
    }

    /**
     * The fetcher of a chain as ingestion wires it (its proposers, accounts, NFT parser and, on Move chains, the store
     * owners kept in {@code pool}); {@code verify} and {@code reindex} use the same one.
     */
    public static BlockFetcher forChain(
            Vertx vertx,
            ChainConfig chain,
            IngestConfig cfg,
            io.vertx.sqlclient.Pool pool,
            CometRpcClient rpc,
            CosmosRestClient rest,
            EvmRpcClient evm,
            NftMetadata nftMetadata) {
        MoveStoreOwners storeOwners = chain.vm() == ChainConfig.Vm.MOVE
                ? new MoveStoreOwners(rest, new dev.weft.store.MoveStoreOwnerStore(pool), chain.bech32Prefix())
                : null;
        return new BlockFetcher(
                vertx,
                rpc,
                rest,
                evm,
                new ProposerResolver(rest, chain.bech32Prefix()),
                new BlockAssembler(new AccountExtractor(chain), dev.weft.nft.NftParser.forChain(chain)),
                nftMetadata,
                storeOwners,
                cfg);
    }

    /**
     * Where an empty database starts: {@code ingest.start_height}, or with 0 the node's earliest available block
     * ({@code /status} {@code sync_info.earliest_block_height}: a pruned node has no block below it). Fails with a
     * {@link ConfigException} when the configured height is below that, and with the node's error when {@code /status}
     * cannot be read.
     */
    public Future<Long> startHeight() {
        return rpc.status().map(s -> {
            long h = chooseStart(cfg.startHeight(), s.earliestHeight());
            earliest = Math.max(1, s.earliestHeight());
            firstHeight = h;
            LOG.info(
                    "the database is empty: ingestion starts at height {} ({}; the node's earliest block is {})",
                    h,
                    cfg.startHeight() == 0 ? "the node's earliest, ingest.start_height = 0" : "ingest.start_height",
                    earliest);
            return h;
        });
    }

    static long chooseStart(long configured, long nodeEarliest) {
        long lowest = Math.max(1, nodeEarliest);
        if (configured == 0) return lowest;
        if (configured < lowest) {
            throw new ConfigException(
                    "ingest.start_height",
                    configured + " is below the node's earliest available block " + lowest
                            + " (a pruned node): set it to " + lowest
                            + " or above, or to 0 to start at the earliest block");
        }
        return configured;
    }

    public Future<IndexedBlock> fetch(long height) {
        Future<BlockAssembler.Decoded> decoded = rpc.block(height)
                .compose(b -> b.height() == height
                        ? vertx.executeBlocking(() -> assembler.decode(b), false)
                        : Future.failedFuture(
                                new IllegalStateException("asked block " + height + ", got " + b.height())));
        Future<BlockResults> results = rpc.blockResults(height);
        Future<List<BlockReceipt>> receipts =
                evm == null ? Future.succeededFuture(List.of()) : evm.blockReceiptSpans(height);
        // while most recent blocks carry txs, the REST txs are asked with the block, not one round trip after it
        Future<List<RestTx>> early = withTxsShare >= EARLY_REST_SHARE ? rest.txsByBlock(height, -1) : null;
        decoded.onSuccess(d -> withTxsShare += SHARE_WEIGHT * ((d.txs().isEmpty() ? 0 : 1) - withTxsShare));
        Future<RestTx[]> restTxs = decoded.compose(
                d -> d.txs().isEmpty() ? Future.succeededFuture(new RestTx[0]) : restTxs(height, d, early));
        Future<IndexedBlock.Proposer> proposer =
                decoded.compose(d -> proposers.resolve(d.block().proposerAddress()));
        // NFT metadata (names, token URIs at this height) is read while the REST txs and the proposer are
        Future<List<NftEvent>> nfts = results.compose(r -> vertx.executeBlocking(() -> assembler.nfts(r), false))
                .compose(parsed ->
                        parsed.isEmpty() ? Future.succeededFuture(parsed) : nftMetadata.resolve(height, parsed));
        // Move stores whose deposits/withdrawals come without their owner event: their owners, known or read at this
        // height
        Future<Map<AccountAddress, AccountAddress>> storeOwners = moveStoreOwners == null
                ? Future.succeededFuture(Map.of())
                : results.compose(r -> moveStoreOwners.resolve(height, r));
        // the first block of an empty database: the header before it gives its block_time (nothing else will)
        Future<Long> previousTime =
                height == firstHeight && height > earliest ? headerTime(height - 1) : Future.succeededFuture(null);
        return Future.all(List.of(results, receipts, restTxs, proposer, nfts, storeOwners, previousTime))
                .compose(x -> vertx.executeBlocking(
                        () -> assembler
                                .assemble(
                                        decoded.result(),
                                        results.result(),
                                        restTxs.result(),
                                        receipts.result(),
                                        proposer.result(),
                                        nfts.result(),
                                        storeOwners.result())
                                .withPreviousTimeNs(previousTime.result()),
                        false));
    }

    /** The header time of a height ({@code /blockchain}, one block meta). */
    private Future<Long> headerTime(long height) {
        return rpc.blockchain(height, height).map(r -> {
            for (JsonNode meta : NodeJson.array(r, "block_metas")) {
                JsonNode header = meta.path("header");
                if (NodeJson.longValue(header, "height", -1) == height)
                    return Rfc3339.parseNanos(NodeJson.text(header, "time", ""));
            }
            throw NodeException.invalid("rpc /blockchain", "no block meta of height " + height);
        });
    }

    /** The REST twins of a block's raw txs; {@code early}, when not null, is the first attempt's answer, asked already. */
    private Future<RestTx[]> restTxs(long height, BlockAssembler.Decoded d, Future<List<RestTx>> early) {
        RestTx[] slots = new RestTx[d.txs().size()];
        Promise<RestTx[]> p = Promise.promise();
        restAttempt(height, d, slots, 1, early, p);
        return p.future();
    }

    private void restAttempt(
            long height,
            BlockAssembler.Decoded d,
            RestTx[] slots,
            int attempt,
            Future<List<RestTx>> early,
            Promise<RestTx[]> p) {
        (early != null ? early : rest.txsByBlock(height, d.txs().size()))
                .compose(list -> vertx.executeBlocking(() -> TxMatcher.match(d.keys(), list, slots), false))
                .onComplete(ar -> {
                    if (ar.succeeded() && ar.result() == 0) {
                        p.complete(slots);
                        return;
                    }
                    String why = ar.succeeded()
                            ? "REST returned " + (slots.length - ar.result()) + " of " + slots.length + " txs"
                            : ar.cause().getMessage();
                    if (attempt >= Math.max(cfg.retryAttempts(), 3)) {
                        p.fail(new IllegalStateException("height " + height + ": " + why));
                        return;
                    }
                    long delay = Backoff.delayMs(attempt, cfg.retryBase(), cfg.retryMax());
                    LOG.debug("height {}: {}; asking REST again in {} ms", height, why, delay);
                    vertx.setTimer(delay, t -> restAttempt(height, d, slots, attempt + 1, null, p));
                });
    }
}
