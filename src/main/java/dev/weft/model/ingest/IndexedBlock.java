package dev.weft.model.ingest;

import dev.weft.chain.AccountAddress;
import dev.weft.chain.CosmosTx;
import dev.weft.chain.model.FungibleTransfer;
import dev.weft.model.nft.NftEvent;
import io.vertx.core.buffer.Buffer;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One block ready to commit: the facts of the block record, its Cosmos txs and EVM receipts with their pre-rendered
 * API JSON, involved accounts and message types. Everything an endpoint shows is in here, so reads never call a node.
 *
 * @param timeNs    block time in nanoseconds since the epoch
 * @param totalFee  fees of the block's txs summed per denom, sorted by denom
 * @param nfts      the NFT changes of the block's txs in chain order (completed from the node before the commit)
 * @param previousTimeNs the time of the block before, when read from the node (for the first block an empty database
 *                  indexes, whose interval the database cannot give), else null
 */
public record IndexedBlock(
        long height,
        String chainId,
        byte[] hash,
        long timeNs,
        byte[] proposerAddress,
        Proposer proposer,
        long gasUsed,
        long gasWanted,
        List<CosmosTx.Coin> totalFee,
        List<Tx> txs,
        List<EvmTx> evmTxs,
        List<NftEvent> nfts,
        Long previousTimeNs) {

    /** The same block with its NFT changes replaced (once their metadata is read). */
    public IndexedBlock withNfts(List<NftEvent> n) {
        return new IndexedBlock(
                height,
                chainId,
                hash,
                timeNs,
                proposerAddress,
                proposer,
                gasUsed,
                gasWanted,
                totalFee,
                txs,
                evmTxs,
                n,
                previousTimeNs);
    }

    /** The same block knowing the time of the block before it. */
    public IndexedBlock withPreviousTimeNs(Long t) {
        return new IndexedBlock(
                height,
                chainId,
                hash,
                timeNs,
                proposerAddress,
                proposer,
                gasUsed,
                gasWanted,
                totalFee,
                txs,
                evmTxs,
                nfts,
                t);
    }

    /** The proposer as the block record shows it. */
    public record Proposer(String moniker, String identity, String operatorAddress) {}

    /**
     * A Cosmos tx.
     *
     * @param json     the exact JSON the API returns for it (UTF-8)
     * @param signer   the first signer's address (of the first message, else of the first public key), or null when
     *                 neither gives one
     * @param accounts every involved account, with the signer flag
     * @param msgTypes message type URLs without the leading slash, distinct, in message order
     * @param transfers the fungible token transfers of its events, in event order
     * @param coinDenoms the bank denoms its coin events move
     */
    public record Tx(
            byte[] hash,
            int code,
            Buffer json,
            AccountAddress signer,
            Map<AccountAddress, Boolean> accounts,
            List<String> msgTypes,
            List<FungibleTransfer> transfers,
            Set<String> coinDenoms) {}

    /** An EVM receipt: {@code json} is the subset of receipt fields the API serves, {@code from} the signer. */
    public record EvmTx(
            byte[] hash, int index, Buffer json, AccountAddress from, Map<AccountAddress, Boolean> accounts) {}

    public int txCount() {
        return txs.size();
    }

    /** An estimate of the memory this block holds (for the window's log line). */
    public long approxBytes() {
        long n = 512;
        for (Tx t : txs) n += t.json().length() + 64L * t.accounts().size() + 128;
        for (EvmTx t : evmTxs) n += t.json().length() + 64L * t.accounts().size() + 128;
        return n;
    }
}
