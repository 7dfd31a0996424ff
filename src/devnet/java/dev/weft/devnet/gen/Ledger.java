package dev.weft.devnet.gen;

import java.math.BigInteger;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * ERC-20 balances at any height: the sum of every Transfer effect up to that height (there is no hidden genesis state:
 * block 1 mints the supply with Transfer logs from the zero address). Computed by replaying plans, which is cheap (no
 * rendering), from the nearest checkpoint; checkpoints are kept sparse (at most {@link #MAX_CHECKPOINTS}, their spacing
 * doubling as the chain grows) and the last few queried heights are cached, so a batch of {@code balanceOf} calls at
 * one height replays once. Amounts are in token quanta.
 */
public final class Ledger {
    private static final int MAX_CHECKPOINTS = 64;
    private static final int CACHED_HEIGHTS = 4;

    private final Genesis genesis;
    private final Layout layout;
    private final Planner planner;
    private final int tokens;
    private final int actors;
    private final TreeMap<Long, long[][]> checkpoints = new TreeMap<>();
    private final Map<Long, long[][]> recent = new LinkedHashMap<>(8, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Long, long[][]> e) {
            return size() > CACHED_HEIGHTS;
        }
    };
    private long spacing = 1024;

    public Ledger(Genesis genesis, Layout layout, Planner planner) {
        this.genesis = genesis;
        this.layout = layout;
        this.planner = planner;
        this.tokens = genesis.tokens().size();
        this.actors = genesis.actorCount();
        checkpoints.put(0L, new long[tokens][actors]);
    }

    /** Balance of an actor in a token at the end of height h, in base units. */
    public BigInteger balance(Token token, Actor actor, long h) {
        long q;
        synchronized (this) {
            q = at(h)[token.index()][actor.id()];
        }
        return token.units(q);
    }

    /** Total supply of a token (constant after block 1: nothing mints or burns ERC-20s afterwards). */
    public BigInteger totalSupply(Token token, long h) {
        if (h < 1) return BigInteger.ZERO;
        return token.units(token.genesisQuanta()).multiply(BigInteger.valueOf(genesis.senderCount()));
    }

    private long[][] at(long h) {
        long[][] hit = recent.get(h);
        if (hit != null) return hit;
        Map.Entry<Long, long[][]> base = checkpoints.floorEntry(h);
        for (Map.Entry<Long, long[][]> e : recent.entrySet()) { // a recently queried lower height is often closer
            if (e.getKey() < h && e.getKey() > base.getKey()) base = e;
        }
        long[][] cur = copy(base.getValue());
        for (long at = base.getKey() + 1; at <= h; at++) {
            apply(cur, at);
            if (at % spacing == 0 && at > checkpoints.lastKey()) addCheckpoint(at, cur);
        }
        recent.put(h, cur);
        return cur;
    }

    private void apply(long[][] bal, long h) {
        long first = layout.firstTx(h);
        long end = first + layout.txCount(h);
        for (long g = first; g < end; g++) {
            for (TxPlan.Effect e : planner.plan(g).effects) {
                if (e instanceof TxPlan.Erc20 t) {
                    if (t.from() != TxPlan.ZERO) bal[t.token()][t.from()] -= t.quanta();
                    if (t.to() != TxPlan.ZERO) bal[t.token()][t.to()] += t.quanta();
                }
            }
        }
    }

    private void addCheckpoint(long h, long[][] cur) {
        checkpoints.put(h, copy(cur));
        if (checkpoints.size() <= MAX_CHECKPOINTS) return;
        spacing *= 2;
        checkpoints.keySet().removeIf(k -> k != 0 && k % spacing != 0);
    }

    private long[][] copy(long[][] b) {
        long[][] out = new long[tokens][];
        for (int i = 0; i < tokens; i++) out[i] = b[i].clone();
        return out;
    }
}
