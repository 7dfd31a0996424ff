package dev.weft.devnet.gen;

import dev.weft.chain.AccountAddress;
import dev.weft.chain.Hashes;
import dev.weft.chain.Hex;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * The cast of a chain: keyed senders, receive-only recipients, the fee collector, the deployer, and the contracts it
 * deploys in block 1 (six ERC-20s, two ERC-721 collections, a library and a router), plus the sequencer. Sender keys
 * cost an elliptic-curve multiplication each, so actors are built on first use.
 *
 * <p>Dense actor ids: senders {@code [0, S)}, recipients {@code [S, S+R)}, then the fee collector, the deployer and
 * the contracts in deployment order.
 */
public final class Genesis {
    private static final BigInteger CURVE_N =
            new BigInteger("FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFEBAAEDCE6AF48A03BBFD25E8CD0364141", 16);
    private static final long TAG_KEY = 1, TAG_RECIPIENT = 2, TAG_PERIOD = 3, TAG_VALIDATOR = 4;
    /** First account number of senders (module accounts take the low ones on a real chain). */
    private static final long FIRST_ACCOUNT_NUMBER = 12;

    private final ChainSpec spec;
    private final int s;
    private final int r;
    private final AtomicReferenceArray<Actor> actors;
    private final Actor feeCollector;
    private final Actor deployer;
    private final List<Token> tokens = new ArrayList<>();
    private final List<Collection> collections = new ArrayList<>();
    private final Actor feeLib;
    private final Actor router;
    private final List<Validator> validators;
    private final int[] period;
    private final int[] periodRank;
    private final int[] weight;
    private volatile Map<Long, Integer> byAddress;

    public Genesis(ChainSpec spec) {
        this.spec = spec;
        this.s = spec.senders();
        this.r = spec.recipients();
        this.actors = new AtomicReferenceArray<>(s + r + 2 + Layout.GENESIS_TXS);
        this.feeCollector = put(new Actor(
                s + r,
                Arrays.copyOf(Hashes.sha256("fee_collector".getBytes(StandardCharsets.UTF_8)), 20),
                null,
                5,
                spec.bech32Prefix()));
        BigInteger deployerKey = privateKey(spec.seed(), -1);
        byte[] deployerPub = AccountAddress.compressedPublicKey(deployerKey);
        this.deployer = put(new Actor(
                s + r + 1,
                AccountAddress.fromEthSecp256k1(deployerPub).bytes(),
                deployerPub,
                FIRST_ACCOUNT_NUMBER - 1,
                spec.bech32Prefix()));
        int id = s + r + 2;
        // the six ERC-20s of weft-devnet-1 in conf/registry/devnet.json: bank denoms backed by ERC-20s at the addresses
        // the
        // registry fixes (Keccak-256 of a seed), the fee token first
        String l2Init = l2Denom(1, "uinit");
        tokens.add(new Token(0, "INIT", "Initia Native Token", 6, l2Init, seeded(id++, "/erc20/" + l2Init), 0));
        String l2Usdc = l2Denom(1, "uusdc");
        tokens.add(new Token(1, "USDC", "USD Coin", 6, l2Usdc, seeded(id++, "/erc20/" + l2Usdc), 0));
        String ibcInit = ibcDenom("transfer/channel-0/uinit");
        tokens.add(new Token(2, "INIT", "Initia Native Token", 6, ibcInit, seeded(id++, "/erc20/" + ibcInit), 0));
        String ibcUsdc = ibcDenom("transfer/channel-0/uusdc");
        tokens.add(new Token(3, "USDC", "USD Coin", 6, ibcUsdc, seeded(id++, "/erc20/" + ibcUsdc), 0));
        Actor wrapper = seeded(id++, "/erc20-wrapper/INIT");
        tokens.add(new Token(
                4,
                "INIT",
                "Wrapped INIT (18 decimals)",
                18,
                "evm/" + wrapper.checksum().substring(2),
                wrapper,
                9));
        Actor oft = seeded(id++, "/oft/USDC");
        tokens.add(new Token(
                5,
                "USDC",
                "USD Coin (LayerZero OFT)",
                6,
                "evm/" + oft.checksum().substring(2),
                oft,
                0));
        int nonce = tokens.size();
        collections.add(
                new Collection(0, "Weft Kittens", "WKIT", "https://devnet.weft.dev/kittens/", contract(id++, nonce++)));
        collections.add(new Collection(1, "Devnet Punks", "DPUNK", "ipfs://bafydevnetpunks/", contract(id++, nonce++)));
        this.feeLib = contract(id++, nonce++);
        this.router = contract(id, nonce);
        this.validators = List.of(
                Validator.of(0, Mix.bytes(spec.seed(), TAG_VALIDATOR, 0, 32), spec.moniker(), spec.valoperPrefix()));
        this.weight = new int[s];
        int total = 0;
        for (int a = 0; a < s; a++) {
            weight[a] = a < Math.max(1, s / 32) ? 24 : a < Math.max(2, s / 8) ? 6 : 2;
            total += weight[a];
        }
        this.period = new int[total];
        int k = 0;
        for (int a = 0; a < s; a++) for (int j = 0; j < weight[a]; j++) period[k++] = a;
        Mix.Rng rng = new Mix.Rng(Mix.hash(spec.seed(), TAG_PERIOD));
        for (int i = total - 1; i > 0; i--) {
            int j = rng.below(i + 1);
            int t = period[i];
            period[i] = period[j];
            period[j] = t;
        }
        this.periodRank = new int[total];
        int[] seen = new int[s];
        for (int i = 0; i < total; i++) periodRank[i] = seen[period[i]]++;
    }

    private Actor put(Actor a) {
        actors.set(a.id(), a);
        return a;
    }

    /** A contract at the last 20 bytes of Keccak-256 of "{chain id}{suffix}" (the registry's convention). */
    private Actor seeded(int id, String suffix) {
        byte[] h = Hashes.keccak256(spec.chainId() + suffix);
        return put(
                new Actor(id, Arrays.copyOfRange(h, 12, 32), null, FIRST_ACCOUNT_NUMBER + s + id, spec.bech32Prefix()));
    }

    /** OPinit's L2 denom of an L1 denom: {@code l2/} + hex SHA3-256(big-endian bridge id ‖ denom). */
    static String l2Denom(long bridgeId, String l1Denom) {
        return "l2/"
                + Hex.lower(Hashes.sha3_256(concat(longBytes(bridgeId), l1Denom.getBytes(StandardCharsets.UTF_8))));
    }

    /** An IBC denom: {@code ibc/} + upper-case hex SHA-256 of the trace path. */
    static String ibcDenom(String path) {
        return "ibc/" + Hex.upper(Hashes.sha256(path.getBytes(StandardCharsets.UTF_8)));
    }

    private Actor contract(int id, int nonce) {
        return put(new Actor(
                id,
                ContractAddress.create(deployer.address(), nonce),
                null,
                FIRST_ACCOUNT_NUMBER + s + id,
                spec.bech32Prefix()));
    }

    static byte[] longBytes(long v) {
        byte[] b = new byte[8];
        for (int i = 7; i >= 0; i--, v >>>= 8) b[i] = (byte) v;
        return b;
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] out = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }

    private static BigInteger privateKey(long seed, long i) {
        return new BigInteger(1, Mix.bytes(seed, TAG_KEY, i, 32))
                .mod(CURVE_N.subtract(BigInteger.ONE))
                .add(BigInteger.ONE);
    }

    public ChainSpec spec() {
        return spec;
    }

    /** The private key of a keyed actor (a sender or the deployer), from which its key and address derive. */
    BigInteger privateKeyOf(Actor a) {
        if (a == deployer) return privateKey(spec.seed(), -1);
        if (a.id() < s) return privateKey(spec.seed(), a.id());
        throw new IllegalArgumentException(a + " has no key");
    }

    /** The actor with that dense id (senders derive their key on first use). */
    public Actor actor(int id) {
        Actor a = actors.get(id);
        if (a != null) return a;
        if (id < s) {
            byte[] pub = AccountAddress.compressedPublicKey(privateKey(spec.seed(), id));
            a = new Actor(
                    id,
                    AccountAddress.fromEthSecp256k1(pub).bytes(),
                    pub,
                    FIRST_ACCOUNT_NUMBER + id,
                    spec.bech32Prefix());
        } else if (id < s + r) {
            a = new Actor(id, Mix.bytes(spec.seed(), TAG_RECIPIENT, id - s, 20), null, 0, spec.bech32Prefix());
        } else {
            throw new IllegalArgumentException("no actor " + id);
        }
        actors.compareAndSet(id, null, a);
        return actors.get(id);
    }

    public int actorCount() {
        return actors.length();
    }

    public int senderCount() {
        return s;
    }

    public int recipientCount() {
        return r;
    }

    /** The actor at a 20-byte address, or null (an address the chain never used). Derives every key once. */
    public Actor find(byte[] address) {
        if (address.length != 20) return null;
        Map<Long, Integer> m = byAddress;
        if (m == null) m = buildIndex();
        Integer id = m.get(key(address));
        if (id == null) return null;
        Actor a = actor(id);
        return Arrays.equals(a.address(), address) ? a : null;
    }

    private synchronized Map<Long, Integer> buildIndex() {
        if (byAddress != null) return byAddress;
        Map<Long, Integer> m = new HashMap<>(2 * actors.length());
        for (int i = s + r; i < actors.length(); i++) m.put(key(actors.get(i).address()), i);
        for (int i = 0; i < s; i++) m.put(key(actor(i).address()), i);
        for (int i = 0; i < r; i++) m.put(key(Mix.bytes(spec.seed(), TAG_RECIPIENT, i, 20)), s + i);
        byAddress = m;
        return m;
    }

    private static long key(byte[] a) {
        long k = 0;
        for (int i = 0; i < 8; i++) k = (k << 8) | (a[i] & 0xff);
        return k;
    }

    public Actor feeCollector() {
        return feeCollector;
    }

    public Actor deployer() {
        return deployer;
    }

    public List<Token> tokens() {
        return tokens;
    }

    public Token feeToken() {
        return tokens.get(0);
    }

    public List<Collection> collections() {
        return collections;
    }

    public Actor feeLib() {
        return feeLib;
    }

    public Actor router() {
        return router;
    }

    public List<Validator> validators() {
        return validators;
    }

    /** The token whose contract is at that address, or null. */
    public Token tokenAt(byte[] address) {
        for (Token t : tokens) if (Arrays.equals(t.contract().address(), address)) return t;
        return null;
    }

    public Collection collectionAt(byte[] address) {
        for (Collection c : collections) if (Arrays.equals(c.contract().address(), address)) return c;
        return null;
    }

    public Token tokenByDenom(String denom) {
        for (Token t : tokens) if (t.bankDenom().equals(denom)) return t;
        return null;
    }

    /** The sender of the u-th regular tx of the chain (round-robin through a shuffled period where busy senders recur). */
    public int sender(long u) {
        return period[(int) (u % period.length)];
    }

    /** That sender's sequence (nonce) at its u-th tx: how many txs it signed before. */
    public long sequence(long u) {
        int pos = (int) (u % period.length);
        return (u / period.length) * weight[period[pos]] + periodRank[pos];
    }
}
