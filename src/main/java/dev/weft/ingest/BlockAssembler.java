package dev.weft.ingest;

import com.fasterxml.jackson.databind.JsonNode;
import dev.weft.chain.AccountAddress;
import dev.weft.chain.CosmosTx;
import dev.weft.chain.Hex;
import dev.weft.chain.model.BlockReceipt;
import dev.weft.chain.model.BlockResults;
import dev.weft.chain.model.CometBlock;
import dev.weft.chain.model.FungibleTransfer;
import dev.weft.chain.model.NodeJson;
import dev.weft.chain.model.RestTx;
import dev.weft.chain.model.Rfc3339;
import dev.weft.model.ingest.IndexedBlock;
import dev.weft.model.nft.NftEvent;
import dev.weft.nft.NftParser;
import dev.weft.store.SqlArrays;
import io.vertx.core.buffer.Buffer;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Turns the node documents of one height into an {@link IndexedBlock}: decodes the raw txs (hash, fee, message types),
 * takes each tx's signers from its messages and public keys, pairs them with their results and REST JSON, renders the API JSON, extracts involved accounts and NFT
 * changes, and sums gas and fees. Pure CPU work, run on worker threads; inconsistent documents throw, so the height is fetched again.
 */
public final class BlockAssembler {
    private static final int SIGNER_CACHE_LIMIT = 200_000;

    private final AccountExtractor accounts;
    private final NftParser nfts;
    private final MessageSigners messageSigners;
    private final Map<ByteBuffer, AccountAddress> signerCache = new ConcurrentHashMap<>();

    public BlockAssembler(AccountExtractor accounts, NftParser nfts) {
        this.accounts = accounts;
        this.nfts = nfts;
        this.messageSigners = new MessageSigners(accounts.prefix());
    }

    /** A block with its raw txs decoded. */
    public record Decoded(CometBlock block, List<CosmosTx> txs, List<String> hashes, List<String> keys) {}

    public Decoded decode(CometBlock b) {
        List<CosmosTx> txs = new ArrayList<>(b.txs().size());
        List<String> hashes = new ArrayList<>(b.txs().size());
        List<String> keys = new ArrayList<>(b.txs().size());
        for (byte[] raw : b.txs()) {
            CosmosTx tx;
            try {
                tx = CosmosTx.decode(raw);
            } catch (RuntimeException e) {
                tx = new CosmosTx(List.of(), "", 0, List.of(), new CosmosTx.Fee(List.of(), 0, "", ""), List.of());
            }
            txs.add(tx);
            hashes.add(CosmosTx.hash(raw));
            keys.add(TxMatcher.key(tx));
        }
        return new Decoded(b, txs, hashes, keys);
    }

    /**
     * The NFT changes of a block's txs, in chain order (read as soon as {@code /block_results} arrives, so their metadata
     * is fetched while the rest of the block is).
     */
    public List<NftEvent> nfts(BlockResults results) {
        List<NftEvent> out = new ArrayList<>();
        for (int i = 0; i < results.txs().size(); i++)
            nfts.parse(i, results.txs().get(i).events(), out);
        return out;
    }

    /** @param nftChanges the block's NFT changes ({@link #nfts}), completed with their metadata */
    public IndexedBlock assemble(
            Decoded d,
            BlockResults results,
            RestTx[] restTxs,
            List<BlockReceipt> receipts,
            IndexedBlock.Proposer proposer,
            List<NftEvent> nftChanges) {
        return assemble(d, results, restTxs, receipts, proposer, nftChanges, Map.of());
    }

    /** @param moveStoreOwners the owners of the Move stores whose movements come without their owner event */
    public IndexedBlock assemble(
            Decoded d,
            BlockResults results,
            RestTx[] restTxs,
            List<BlockReceipt> receipts,
            IndexedBlock.Proposer proposer,
            List<NftEvent> nftChanges,
            Map<AccountAddress, AccountAddress> moveStoreOwners) {
        CometBlock b = d.block();
        if (results.height() != b.height())
            throw new IllegalStateException("block_results of height " + results.height() + " for block " + b.height());
        if (results.txs().size() != b.txs().size()) {
            throw new IllegalStateException("block " + b.height() + " has "
                    + b.txs().size() + " txs but block_results " + results.txs().size());
        }
        String timestamp = Rfc3339.nanos(b.timeNs());
        long gasUsed = 0;
        long gasWanted = 0;
        TreeMap<String, BigInteger> fees = new TreeMap<>();
        List<IndexedBlock.Tx> txs = new ArrayList<>(b.txs().size());
        for (int i = 0; i < b.txs().size(); i++) {
            BlockResults.TxResult r = results.txs().get(i);
            gasUsed += r.gasUsedLong();
            gasWanted += r.gasWantedLong();
            txs.add(tx(d, i, r, restTxs[i], timestamp, fees, moveStoreOwners));
        }
        List<IndexedBlock.EvmTx> evmTxs = new ArrayList<>(receipts.size());
        for (BlockReceipt rc : receipts)
            evmTxs.add(rc.verbatim() ? evmTx(rc, b.height()) : evmTx(rc.tree(), b.height()));
        List<CosmosTx.Coin> totalFee = new ArrayList<>(fees.size());
        fees.forEach((denom, amount) -> totalFee.add(new CosmosTx.Coin(denom, amount.toString())));
        return new IndexedBlock(
                b.height(),
                b.chainId(),
                b.hash(),
                b.timeNs(),
                b.proposerAddress(),
                proposer,
                gasUsed,
                gasWanted,
                totalFee,
                txs,
                evmTxs,
                nftChanges,
                null);
    }

    /**
     * One tx of the block. A method of its own (not the body of the block's loop) so the JIT compiles it once it has run
     * for a few hundred txs, as a small unit, instead of compiling the whole block loop several times on stack replacement.
     */
    private IndexedBlock.Tx tx(
            Decoded d,
            int i,
            BlockResults.TxResult r,
            RestTx rest,
            String timestamp,
            TreeMap<String, BigInteger> fees,
            Map<AccountAddress, AccountAddress> moveStoreOwners) {
        CosmosTx tx = d.txs().get(i);
        long height = d.block().height();
        if (rest == null)
            throw new IllegalStateException("no REST tx for " + d.hashes().get(i) + " at height " + height);
        for (CosmosTx.Coin c : tx.fee().amount()) addFee(fees, c);
        Buffer json = SqlArrays.bytea(TxJson.render(d.hashes().get(i), height, r, rest, timestamp));
        Map<AccountAddress, Boolean> involved = new LinkedHashMap<>();
        // the signers as the SDK derives them (each message's signer field), then those of the public keys (the same
        // accounts on a real chain; the only ones when no message field is recognised)
        AccountAddress signer = null;
        for (AccountAddress a : messageSigners.of(rest)) {
            if (signer == null) signer = a;
            involved.put(a, true);
        }
        for (CosmosTx.SignerInfo s : tx.signerInfos()) {
            AccountAddress a = signerAddress(s);
            if (a == null) continue;
            if (signer == null) signer = a;
            involved.put(a, true);
        }
        accounts.fromEvents(r.events(), involved);
        accounts.fromStoreOwners(r.events(), moveStoreOwners, involved);
        Set<String> types = new LinkedHashSet<>();
        for (CosmosTx.Any m : tx.messages())
            types.add(m.typeUrl().startsWith("/") ? m.typeUrl().substring(1) : m.typeUrl());
        List<FungibleTransfer> transfers = new ArrayList<>(0);
        Set<String> coinDenoms = new LinkedHashSet<>();
        FungibleTransfers.read(r.events(), accounts.prefix(), moveStoreOwners, transfers, coinDenoms);
        return new IndexedBlock.Tx(
                Hex.decode(d.hashes().get(i)),
                r.code(),
                json,
                signer,
                involved,
                List.copyOf(types),
                transfers,
                coinDenoms);
    }

    /**
     * One EVM receipt of the block, stored as the node sent it (a method of its own for the same reason as {@link #tx}).
     * Its checks and fields are those of the tree form below, read from the scan.
     */
    private IndexedBlock.EvmTx evmTx(BlockReceipt rc, long height) {
        String hash = checkedHash(rc.blockNumber(), rc.transactionHash(), height);
        Map<AccountAddress, Boolean> involved = accounts.fromReceipt(rc);
        AccountAddress from = AccountExtractor.hex20(rc.from());
        int index = (int) NodeJson.quantity(rc.transactionIndex() == null ? "0x0" : rc.transactionIndex());
        byte[] json = java.util.Arrays.copyOfRange(rc.source(), rc.start(), rc.end());
        return new IndexedBlock.EvmTx(Hex.decode(hash), index, SqlArrays.bytea(json), from, involved);
    }

    /** One EVM receipt of the block read as a tree, and written in the stored record's form. */
    private IndexedBlock.EvmTx evmTx(JsonNode rc, long height) {
        String hash =
                checkedHash(NodeJson.text(rc, "blockNumber", null), NodeJson.text(rc, "transactionHash", ""), height);
        Map<AccountAddress, Boolean> involved = accounts.fromReceipt(rc);
        AccountAddress from = AccountExtractor.hex20(NodeJson.text(rc, "from", null));
        int index = (int) NodeJson.quantity(NodeJson.text(rc, "transactionIndex", "0x0"));
        return new IndexedBlock.EvmTx(Hex.decode(hash), index, SqlArrays.bytea(ReceiptJson.render(rc)), from, involved);
    }

    /** A receipt of this height with a 32-byte tx hash, which it answers. */
    private static String checkedHash(String blockNumber, String hash, long height) {
        if (blockNumber != null && NodeJson.quantity(blockNumber) != height) {
            throw new IllegalStateException("receipt of block " + blockNumber + " in the receipts of " + height);
        }
        if (hash == null || !Hex.isHex(hash, 32))
            throw new IllegalStateException("receipt without transactionHash at height " + height);
        return hash;
    }

    private static void addFee(TreeMap<String, BigInteger> fees, CosmosTx.Coin c) {
        try {
            BigInteger amount = new BigInteger(c.amount());
            if (amount.signum() > 0) fees.merge(c.denom(), amount, BigInteger::add);
        } catch (NumberFormatException ignored) {
            // a coin the SDK would have rejected: not part of any fee
        }
    }

    /** The signer's address; deriving it from an ethsecp256k1 key costs a point decompression, so keys are cached. */
    private AccountAddress signerAddress(CosmosTx.SignerInfo s) {
        if (s.pubKey() == null || s.pubKey().length == 0) return null;
        ByteBuffer key = ByteBuffer.wrap(concat(s));
        AccountAddress cached = signerCache.get(key);
        if (cached != null) return cached;
        AccountAddress a;
        try {
            a = s.address();
        } catch (RuntimeException e) {
            a = null;
        }
        if (a == null) return null;
        if (signerCache.size() > SIGNER_CACHE_LIMIT) signerCache.clear();
        signerCache.put(key, a);
        return a;
    }

    private static byte[] concat(CosmosTx.SignerInfo s) {
        byte[] t = s.pubKeyType().getBytes(java.nio.charset.StandardCharsets.UTF_8);
        byte[] out = new byte[t.length + 1 + s.pubKey().length];
        System.arraycopy(t, 0, out, 0, t.length);
        out[t.length] = ':';
        System.arraycopy(s.pubKey(), 0, out, t.length + 1, s.pubKey().length);
        return out;
    }
}
