package dev.weft.devnet.world;

import dev.weft.chain.AccountAddress;
import dev.weft.chain.CosmosTx;
import dev.weft.chain.Hex;
import dev.weft.devnet.exec.ChainApp;
import dev.weft.devnet.exec.EthereumCall;
import dev.weft.devnet.gen.Accounts;
import dev.weft.devnet.gen.BankBalances;
import dev.weft.devnet.gen.Block;
import dev.weft.devnet.gen.DevnetChain;
import dev.weft.devnet.gen.Msg;
import dev.weft.devnet.gen.Token;
import dev.weft.devnet.gen.Tx;
import dev.weft.devnet.gen.TxBuilder;
import dev.weft.devnet.mempool.Broadcaster;
import dev.weft.devnet.mempool.Mempool;
import dev.weft.devnet.tx.DecodedTx;
import dev.weft.devnet.tx.DirectSign;
import dev.weft.devnet.tx.EthRawTx;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiFunction;

/**
 * One chain of the devnet: its blocks (generated or quiet), the application that executes submitted txs, and its
 * mempool. Producing a block takes the bots' txs due at its time, then the queued user txs, executes them in that
 * order and appends them to the block.
 */
public final class ChainNode implements Broadcaster {
    private static final long CHECK_GAS = 40_000;

    private final DevnetChain chain;
    private final ChainApp app;
    private final Mempool mempool;
    private final int maxBlockTxs;
    private final boolean live;
    private final boolean verifySignatures;
    /** Ethereum txs in the mempool, by the Cosmos hash of the tx wrapping each. */
    private final java.util.Map<String, EthRawTx> ethereum = new java.util.concurrent.ConcurrentHashMap<>();

    /** @param verifySignatures whether CheckTx verifies signatures and sequences (benches may turn it off) */
    ChainNode(DevnetChain chain, ChainApp app, int maxBlockTxs, boolean live, boolean verifySignatures) {
        this.chain = chain;
        this.app = app;
        this.maxBlockTxs = maxBlockTxs;
        this.mempool = new Mempool(maxBlockTxs * 10);
        this.live = live;
        this.verifySignatures = verifySignatures;
    }

    public String chainId() {
        return chain.spec().chainId();
    }

    public DevnetChain chain() {
        return chain;
    }

    public ChainApp app() {
        return app;
    }

    public Mempool mempool() {
        return mempool;
    }

    @Override
    public Submission submit(byte[] raw) {
        if (!live) throw new Mempool.Refused("the devnet runs in history mode: no block will include a submitted tx");
        DecodedTx d;
        try {
            d = DecodedTx.decode(raw, app.types(), app.validAddress());
        } catch (DecodedTx.Rejected r) {
            return rejected(raw, r);
        }
        if (mempool.contains(d.hash()) || chain.findTx(dev.weft.chain.Hex.decode(d.hash())) != null) {
            throw new Mempool.Refused("tx already exists in cache");
        }
        Accounts accounts = chain.accounts();
        // check, queue and increment under one lock: two txs of one account never pass with the same sequence
        synchronized (accounts) {
            List<byte[]> signers;
            try {
                signers = verifySignatures ? DirectSign.check(d, chainId(), accounts, false) : List.of();
            } catch (DecodedTx.Rejected r) {
                return rejected(raw, r);
            }
            var included = mempool.add(d);
            for (byte[] s : signers) accounts.checked(s);
            return new Submission(d.hash(), 0, "", "", d.tx().fee().gasLimit(), CHECK_GAS, included);
        }
    }

    /**
     * minievm's {@code eth_sendRawTransaction}: decodes the raw tx and recovers its sender, checks the nonce against the
     * sender's account sequence as CheckTx sees it and its balance against {@code gas * maxFeePerGas + value}, wraps it
     * in a Cosmos tx of one {@code MsgCall} (signer = the ethsecp256k1 key, sequence = the nonce, fee = gas * fee cap in
     * the fee denom) and queues that; returns the tx's {@code 0x} hash. Unlike minievm, which holds a tx whose nonce
     * is ahead until the gap is filled, the devnet refuses it ({@code nonce too high}). Throws {@link EthRawTx.Invalid}
     * with geth's or minievm's message when refused.
     */
    public String submitEthereum(byte[] raw) {
        if (!live) throw new EthRawTx.Invalid("the devnet runs in history mode: no block will include a submitted tx");
        EthRawTx eth = EthRawTx.decode(raw, chain.spec().evmChainId());
        if (eth.to() == null) throw new EthRawTx.Invalid("contract creation is not served by the devnet");
        String hash = "0x" + eth.hash();
        if (ethereum.values().stream().anyMatch(e -> e.hash().equals(eth.hash()))
                || chain.findTx(Hex.decode(hash)) != null) {
            throw new EthRawTx.Invalid("already known");
        }
        byte[] from = Hex.decode(eth.from());
        Token fee = chain.genesis().feeToken();
        BigInteger scale = BigInteger.TEN.pow(18 - fee.decimals());
        Accounts accounts = chain.accounts();
        synchronized (accounts) {
            Accounts.Account account = accounts.checkState(from);
            long next = account == null ? 0 : account.sequence();
            if (eth.nonce().compareTo(BigInteger.valueOf(next)) < 0)
                throw new EthRawTx.Invalid("nonce too low: next nonce " + next + ", tx nonce " + eth.nonce());
            if (eth.nonce().compareTo(BigInteger.valueOf(next)) > 0)
                throw new EthRawTx.Invalid("nonce too high: next nonce " + next + ", tx nonce " + eth.nonce());
            BigInteger cost = eth.gasLimit().multiply(eth.gasFeeCap()).add(eth.value());
            BigInteger balance = BankBalances.of(chain, from, chain.head(), fee.bankDenom())
                    .amount()
                    .multiply(scale);
            if (cost.compareTo(balance) > 0) {
                throw new EthRawTx.Invalid("insufficient funds for gas * price + value: balance " + balance
                        + ", tx cost " + cost + ", overshot " + cost.subtract(balance));
            }
            String prefix = chain.spec().bech32Prefix();
            Msg.Call call = new Msg.Call(
                    AccountAddress.of(from).bech32(prefix),
                    AccountAddress.of(Hex.decode(eth.to())).checksumHex(),
                    Hex.prefixed(eth.input()),
                    eth.value().divide(scale).toString());
            BigInteger feeAmount = eth.gasLimit()
                    .multiply(eth.gasFeeCap())
                    .add(scale)
                    .subtract(BigInteger.ONE)
                    .divide(scale);
            byte[] wrapped = new CosmosTx(
                            List.of(new CosmosTx.Any(call.typeUrl(), call.proto())),
                            "",
                            0,
                            List.of(new CosmosTx.SignerInfo(
                                    TxBuilder.ETHSECP256K1,
                                    eth.publicKey(),
                                    eth.nonce().longValueExact())),
                            new CosmosTx.Fee(
                                    feeAmount.signum() > 0
                                            ? List.of(new CosmosTx.Coin(fee.bankDenom(), feeAmount.toString()))
                                            : List.of(),
                                    eth.gasLimit().longValueExact(),
                                    "",
                                    ""),
                            List.of(eth.signature()))
                    .encode();
            DecodedTx d;
            try {
                d = DecodedTx.decode(wrapped, app.types(), app.validAddress());
            } catch (DecodedTx.Rejected r) {
                throw new EthRawTx.Invalid(r.getMessage());
            }
            ethereum.put(d.hash(), eth); // before the mempool: a block may take the tx as soon as it is queued
            try {
                mempool.add(d);
            } catch (Mempool.Refused r) {
                ethereum.remove(d.hash());
                throw new EthRawTx.Invalid(r.getMessage());
            }
            accounts.checked(from);
        }
        return hash;
    }

    private static Submission rejected(byte[] raw, DecodedTx.Rejected r) {
        return new Submission(CosmosTx.hash(raw), r.code, r.codespace, r.getMessage(), gasLimit(raw), 0, null);
    }

    @Override
    public long simulate(byte[] raw) {
        DecodedTx d = DecodedTx.decode(raw, app.types(), app.validAddress());
        // Simulate runs the ante handler on the check state without verifying signatures: accounts and sequences count
        if (verifySignatures) DirectSign.check(d, chainId(), chain.accounts(), true);
        return app.gasWanted(d);
    }

    @Override
    public long[] pending() {
        synchronized (mempool) {
            return new long[] {mempool.size(), mempool.bytes()};
        }
    }

    private static long gasLimit(byte[] raw) {
        try {
            return CosmosTx.decode(raw).fee().gasLimit();
        } catch (RuntimeException e) {
            return 0;
        }
    }

    /**
     * Executes the txs of a history block at h (the relayer's, then the generated traffic's) and records them there:
     * the start-up replay of a chain whose history is generated by executing txs. Returns how many it recorded.
     */
    int replay(long h, List<byte[]> txs) {
        if (txs.isEmpty()) return 0;
        long t = chain.blockTimeNanos(h);
        List<Tx> executed = new ArrayList<>(txs.size());
        for (byte[] raw : txs) executed.add(app.deliver(DecodedTx.decode(raw, app.types(), s -> true), h, t));
        chain.recordHistory(h, executed);
        return executed.size();
    }

    /**
     * Produces the next block. {@code bots} gives the relayer's and executor's txs for (height, time); they run first.
     */
    Block produce(BiFunction<Long, Long, List<byte[]>> bots) {
        long h = chain.head() + 1;
        long t = chain.blockTimeNanos(h);
        List<Tx> executed = new ArrayList<>();
        for (byte[] raw : bots.apply(h, t)) {
            executed.add(app.deliver(DecodedTx.decode(raw, app.types(), s -> true), h, t));
        }
        List<Mempool.Entry> user = mempool.take(maxBlockTxs);
        for (Mempool.Entry e : user) {
            EthRawTx eth = ethereum.remove(e.tx().hash());
            executed.add(
                    eth == null
                            ? app.deliver(e.tx(), h, t)
                            : EthereumCall.deliver(app, chain.genesis(), e.tx(), eth, h, t));
        }
        Block b = chain.advance(executed);
        int firstUser = b.txs.size() - user.size();
        for (int i = 0; i < user.size(); i++)
            user.get(i).included().tryComplete(new Mempool.Included(b.txs.get(firstUser + i), h));
        return b;
    }
}
