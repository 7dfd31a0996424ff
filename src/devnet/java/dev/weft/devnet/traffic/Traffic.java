package dev.weft.devnet.traffic;

import dev.weft.chain.AccountAddress;
import dev.weft.chain.CosmosTx;
import dev.weft.chain.MoveStores;
import dev.weft.devnet.gen.Accounts;
import dev.weft.devnet.gen.Mix;
import dev.weft.devnet.tx.DirectSign;
import dev.weft.devnet.tx.MsgTypes;
import io.vertx.core.json.JsonObject;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;

/**
 * The generated traffic of a devnet chain whose history is made by executing txs (the L1, the Move rollup): which
 * heights hold how many txs, and the keyed senders that sign them. Every choice is a function of (seed, chain, height,
 * position) and of the txs before (the replay runs from genesis in height order), so the same seed gives the same
 * blocks, also after a restart. The txs are real TxRaw, SIGN_MODE_DIRECT-signed by secp256k1 keys derived from the seed.
 */
public abstract class Traffic {
    public static final int SENDERS = 16;
    public static final int RECEIVERS = 48;
    private static final BigInteger CURVE_N =
            new BigInteger("FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFEBAAEDCE6AF48A03BBFD25E8CD0364141", 16);
    private static final long TAG_KEY = 81, TAG_RECEIVER = 82, TAG_BLOCK = 83, TAG_TX = 84;
    private static final long GAS = 200_000;

    protected final String chainId;
    protected final String prefix;
    protected final String feeDenom;
    private final long seed;
    private final int txsPerBlock;
    private final double emptyShare;
    /** Last height with traffic. */
    protected final long last;

    private final BigInteger[] keys = new BigInteger[SENDERS];
    private final byte[][] pubKeys = new byte[SENDERS][];
    protected final String[] senders = new String[SENDERS];
    protected final String[] receivers = new String[RECEIVERS];
    private final long[] sequences = new long[SENDERS];
    private Accounts accounts;

    protected Traffic(
            String chainId, String prefix, String feeDenom, long seed, int txsPerBlock, double emptyShare, long last) {
        this.chainId = chainId;
        this.prefix = prefix;
        this.feeDenom = feeDenom;
        this.seed = Mix.hash(seed, TAG_KEY, chainId.hashCode());
        this.txsPerBlock = txsPerBlock;
        this.emptyShare = emptyShare;
        this.last = last;
        for (int i = 0; i < SENDERS; i++) {
            keys[i] = new BigInteger(1, Mix.bytes(this.seed, TAG_KEY, i, 32))
                    .mod(CURVE_N.subtract(BigInteger.ONE))
                    .add(BigInteger.ONE);
            pubKeys[i] = AccountAddress.compressedPublicKey(keys[i]);
            senders[i] = AccountAddress.fromSecp256k1(pubKeys[i]).bech32(prefix);
        }
        for (int i = 0; i < RECEIVERS; i++)
            receivers[i] =
                    AccountAddress.of(Mix.bytes(this.seed, TAG_RECEIVER, i, 20)).bech32(prefix);
    }

    /** The senders' accounts: created (and funded by the caller) at genesis, so their numbers are fixed. */
    public void genesis(Accounts accounts) {
        this.accounts = accounts;
        for (String s : senders) accounts.create(AccountAddress.parse(s, prefix).bytes());
    }

    public List<String> senders() {
        return List.of(senders);
    }

    /** The last height holding generated txs. */
    public long lastHeight() {
        return last;
    }

    /** The generated txs of the block at h (time t), in order. */
    public List<byte[]> txs(long h, long timeNanos) {
        if (h < 2 || h > last || txsPerBlock == 0) return List.of();
        Mix.Rng block = new Mix.Rng(Mix.hash(seed, TAG_BLOCK, h));
        if (block.chance(emptyShare)) return List.of();
        int n = (int) block.between(Math.max(1, txsPerBlock / 2), txsPerBlock + txsPerBlock / 2);
        List<byte[]> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            Mix.Rng rng = new Mix.Rng(Mix.hash(seed, TAG_TX, h, i));
            int sender = rng.below(SENDERS);
            out.add(tx(sender, rng, h, timeNanos));
        }
        return out;
    }

    /** One tx of {@code sender} at h. */
    protected abstract byte[] tx(int sender, Mix.Rng rng, long h, long timeNanos);

    /** A recipient: another sender (30 %) or a receive-only address. */
    protected String recipient(Mix.Rng rng, int sender) {
        if (rng.chance(0.3)) return senders[(sender + 1 + rng.below(SENDERS - 1)) % SENDERS];
        return receivers[rng.below(RECEIVERS)];
    }

    protected static byte[] move32(String bech32, String prefix) {
        return MoveStores.leftPad32(AccountAddress.parse(bech32, prefix).bytes());
    }

    /** A message as its type URL and proto JSON. */
    protected static CosmosTx.Any msg(String typeUrl, JsonObject value) {
        return new CosmosTx.Any(typeUrl, MsgTypes.of(typeUrl).schema().encode(value));
    }

    /** Signs a one-message tx of {@code sender} with its next sequence (SIGN_MODE_DIRECT, secp256k1). */
    protected byte[] sign(int sender, CosmosTx.Any message, String memo) {
        long number = accounts.committed(
                        AccountAddress.parse(senders[sender], prefix).bytes())
                .number();
        long seq = sequences[sender]++;
        List<CosmosTx.Coin> fee = List.of(new CosmosTx.Coin(feeDenom, Long.toString(GAS * 15 / 1000)));
        CosmosTx unsigned = new CosmosTx(
                List.of(message),
                memo,
                0,
                List.of(new CosmosTx.SignerInfo(DirectSign.SECP256K1, pubKeys[sender], seq)),
                new CosmosTx.Fee(fee, GAS, "", ""),
                List.of());
        return DirectSign.sign(unsigned, keys[sender], chainId, number);
    }
}
