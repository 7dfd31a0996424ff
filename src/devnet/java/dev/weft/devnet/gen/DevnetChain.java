package dev.weft.devnet.gen;

import dev.weft.chain.Hex;
import java.math.BigInteger;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A simulated chain: the current head, the blocks (generated on demand from the spec, the most recent ones cached),
 * the txs submitted to it (kept per height: they were appended to live blocks after the generated ones, so the
 * generated history never changes), lookups by hash for every block generated so far, and the state queries
 * {@code eth_call} needs (ERC-20 balances, NFT owners). Thread-safe: servers call it from the event loop, searches
 * from worker threads.
 */
public final class DevnetChain {
    private static final int CACHED_BLOCKS = 128;
    private static final int INDEXED_HASHES = 1 << 18;

    private final ChainSpec spec;
    private final Genesis genesis;
    private final Layout layout;
    private final Planner planner;
    private final BlockFactory factory;
    private final Ledger ledger;
    private final AtomicLong head;
    private final HashIndex txIndex = new HashIndex(INDEXED_HASHES);
    private final HashIndex blockIndex = new HashIndex(INDEXED_HASHES / 4);
    private final ConcurrentSkipListMap<Long, List<Tx>> submitted = new ConcurrentSkipListMap<>();
    private final SubmittedBalances submittedBalances;
    private final Accounts accounts;
    private final Map<Long, Block> cache;

    private final AtomicLong generations = new AtomicLong();
    /** Heights being generated, so concurrent askers share one generation. */
    private final ConcurrentHashMap<Long, FutureTask<Block>> generating = new ConcurrentHashMap<>();

    private final List<java.util.function.Consumer<Block>> listeners =
            new java.util.concurrent.CopyOnWriteArrayList<>();

    /** A tx found by hash: its block and position. */
    public record TxRef(Block block, Tx tx) {}

    public DevnetChain(ChainSpec spec, long initialHead) {
        this(spec, initialHead, CACHED_BLOCKS);
    }

    /** @param cachedBlocks how many generated blocks stay cached (the most recently used) */
    public DevnetChain(ChainSpec spec, long initialHead, int cachedBlocks) {
        this.cache = new LinkedHashMap<>(Math.min(cachedBlocks, 1 << 16) * 2, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<Long, Block> e) {
                return size() > cachedBlocks;
            }
        };
        this.spec = spec;
        this.genesis = new Genesis(spec);
        this.layout = new Layout(spec);
        this.planner = new Planner(genesis, layout);
        Bloom bloom = new Bloom();
        EvmBuilder evm = new EvmBuilder(genesis, bloom);
        this.factory = new BlockFactory(spec, genesis, layout, planner, new TxBuilder(genesis, evm), bloom);
        this.ledger = new Ledger(genesis, layout, planner);
        this.head = new AtomicLong(initialHead);
        this.accounts = new Accounts(genesis, spec.generated());
        this.submittedBalances = new SubmittedBalances(accounts);
    }

    /** The chain's x/auth accounts (numbers and sequences). */
    public Accounts accounts() {
        return accounts;
    }

    /** The balances and sequences submitted txs changed (live mode). */
    public SubmittedBalances submittedBalances() {
        return submittedBalances;
    }

    public ChainSpec spec() {
        return spec;
    }

    public Genesis genesis() {
        return genesis;
    }

    public Planner planner() {
        return planner;
    }

    public Ledger ledger() {
        return ledger;
    }

    public long head() {
        return head.get();
    }

    /** Produces the next block (live mode): generated and indexed first, then visible. */
    public Block advance() {
        return advance(List.of());
    }

    /**
     * Produces the next block with these executed submitted txs appended after the generated ones (their positions are
     * set here): generated, indexed and stored first, then visible.
     */
    public Block advance(List<Tx> txs) {
        long h = head.get() + 1;
        if (!txs.isEmpty()) {
            int first = layout.txCount(h);
            List<Tx> placed = new java.util.ArrayList<>(txs.size());
            for (int i = 0; i < txs.size(); i++) placed.add(txs.get(i).at(first + i));
            submitted.put(h, List.copyOf(placed));
            submittedBalances.apply(placed);
        }
        Block b = block(h);
        head.incrementAndGet();
        for (java.util.function.Consumer<Block> l : listeners) l.accept(b);
        return b;
    }

    /**
     * Records executed txs in a block of the history (h at most the head, before any client asked for it: the start-up
     * replay of the generated traffic of a chain without a formula of its own), after the generated ones, as
     * {@link #advance(List)} does for a live block.
     */
    public void recordHistory(long h, List<Tx> txs) {
        if (h < 1 || h > head.get()) throw new IllegalArgumentException("height " + h + " is not in the history");
        if (txs.isEmpty()) return;
        int first = layout.txCount(h);
        List<Tx> placed = new java.util.ArrayList<>(txs.size());
        for (int i = 0; i < txs.size(); i++) placed.add(txs.get(i).at(first + i));
        submitted.merge(h, List.copyOf(placed), (a, b) -> {
            throw new IllegalStateException("height " + h + " was recorded twice");
        });
        submittedBalances.apply(placed);
        synchronized (cache) {
            cache.remove(h);
        }
        for (Tx tx : placed) txIndex.put(Hex.decode(tx.hash), h);
    }

    /** Calls {@code listener} with every block produced from now on, once it is visible (live mode). */
    public void onBlock(java.util.function.Consumer<Block> listener) {
        listeners.add(listener);
    }

    /** The heights in [from, to] holding submitted txs, with those txs, ascending. */
    public NavigableMap<Long, List<Tx>> submittedBetween(long from, long to) {
        return from > to ? java.util.Collections.emptyNavigableMap() : submitted.subMap(from, true, to, true);
    }

    public boolean exists(long h) {
        return h >= 1 && h <= head.get();
    }

    /** The block at h, generated if needed. Does not check the head: use {@link #exists} first. */
    public Block block(long h) {
        return get(h, true);
    }

    /**
     * The block at h for a one-off scan (searches): taken from the cache when there, else generated and indexed but not
     * cached, so a long scan does not evict the blocks clients are working on.
     */
    public Block scan(long h) {
        return get(h, false);
    }

    private Block get(long h, boolean keep) {
        synchronized (cache) {
            Block b = cache.get(h);
            if (b != null) return b;
        }
        // an indexer asks for a height's block, results and receipts at once, on different threads: the first generates
        // it (signing its EVM txs), the others wait for that instead of generating it again
        FutureTask<Block> mine = new FutureTask<>(() -> generate(h, keep));
        FutureTask<Block> running = generating.putIfAbsent(h, mine);
        if (running == null) {
            try {
                mine.run();
            } finally {
                generating.remove(h, mine);
            }
            running = mine;
        }
        try {
            return running.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while block " + h + " was generated", e);
        } catch (ExecutionException e) {
            throw e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e.getCause());
        }
    }

    private Block generate(long h, boolean keep) {
        generations.incrementAndGet();
        Block b = factory.withSubmitted(
                factory.block(h), submitted.getOrDefault(h, List.of()), submitted.containsKey(h - 1));
        index(b);
        if (!keep) return b;
        synchronized (cache) {
            Block raced = cache.putIfAbsent(h, b);
            return raced != null ? raced : b;
        }
    }

    /** How many blocks were generated so far (a block asked again after the cache let it go counts again). */
    long generations() {
        return generations.get();
    }

    private void index(Block b) {
        for (Tx tx : b.txs) {
            txIndex.put(Hex.decode(tx.hash), b.height);
            if (tx.evm != null) txIndex.put(Hex.decode(tx.evm.hash()), b.height);
        }
        blockIndex.put(b.hash, b.height);
    }

    public byte[] appHash(long h) {
        return factory.appHash(h);
    }

    /** Number of txs at h without generating the block (submitted ones included). */
    public int txCount(long h) {
        List<Tx> sub = submitted.get(h);
        return layout.txCount(h) + (sub == null ? 0 : sub.size());
    }

    public long blockTimeNanos(long h) {
        return factory.timeNanos(h);
    }

    public byte[] blockHash(long h) {
        return factory.blockHash(h);
    }

    /** The signature that commits height h (the last commit of h + 1; computable before h + 1 exists). */
    public byte[] commitSignature(long h) {
        return factory.commitSignature(h);
    }

    public Validator proposer(long h) {
        return factory.proposer(h);
    }

    /**
     * A tx of a block generated so far, by its Cosmos hash (SHA-256 of TxRaw) or its EVM hash; 32 bytes. Null when
     * unknown, not yet generated, or above the head.
     */
    public TxRef findTx(byte[] hash) {
        if (hash.length != 32) return null;
        long h = txIndex.get(hash);
        if (h < 1 || !exists(h)) return null;
        Block b = block(h);
        String cosmos = Hex.upper(hash);
        String eth = Hex.prefixed(hash);
        for (Tx tx : b.txs) {
            if (tx.hash.equals(cosmos) || (tx.evm != null && tx.evm.hash().equals(eth))) return new TxRef(b, tx);
        }
        return null;
    }

    /** A block generated so far, by hash; null when unknown. */
    public Block findBlock(byte[] hash) {
        long h = blockIndex.get(hash);
        if (h < 1 || !exists(h)) return null;
        Block b = block(h);
        return Arrays.equals(b.hash, hash) ? b : null;
    }

    /** ERC-20 balance at the end of height h (base units); zero for an address the chain never used. */
    public BigInteger balanceOf(Token token, byte[] address, long h) {
        Actor a = genesis.find(address);
        return a == null ? BigInteger.ZERO : ledger.balance(token, a, h);
    }

    /** The owner of an NFT at the end of height h, or null when it does not exist then. */
    public Actor ownerOf(Collection c, long tokenId, long h) {
        int owner = planner.ownerOf(c.index(), tokenId, h);
        return owner == TxPlan.ZERO ? null : genesis.actor(owner);
    }
}
