package dev.weft.richlist;

import dev.weft.chain.AccountAddress;
import dev.weft.chain.model.EvmLog;
import dev.weft.store.RichListStore.Pair;
import dev.weft.store.RichListStore.StoredTransfer;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The balance deltas of a run of heights, per height: each ERC-20 Transfer subtracts its amount from {@code from} and
 * adds it to {@code to} of that token (the zero address is skipped, so a mint or a burn moves one side). Knowing the
 * balances before the run, {@link #firstNegative} finds the first height at which a balance would go negative (a
 * missed event: the history does not start at genesis, or a balance changed without a log), so the run can be applied
 * up to the height before and that token repaired at that height. Pure.
 */
public final class RunDeltas {
    /** One height's deltas, and how many sides of transfers they hold. */
    public record Height(long height, Map<Pair, BigInteger> deltas, int sides) {}

    /** The first height where balances would go negative, and the tokens concerned. */
    public record Negative(long height, Set<AccountAddress> tokens) {}

    private final List<Height> heights;
    private final Set<String> denoms;
    private final Set<AccountAddress> tokens;

    private RunDeltas(List<Height> heights, Set<String> denoms, Set<AccountAddress> tokens) {
        this.heights = heights;
        this.denoms = denoms;
        this.tokens = tokens;
    }

    /** The deltas of a run's stored ERC-20 transfers (in chain order) and the bank denoms the run's txs move. */
    public static RunDeltas of(List<StoredTransfer> transfers, Set<String> denoms) {
        List<Height> heights = new ArrayList<>();
        Set<AccountAddress> tokens = new LinkedHashSet<>();
        int i = 0;
        while (i < transfers.size()) {
            long h = transfers.get(i).height();
            Map<Pair, BigInteger> d = new LinkedHashMap<>();
            int sides = 0;
            for (; i < transfers.size() && transfers.get(i).height() == h; i++) {
                StoredTransfer t = transfers.get(i);
                tokens.add(t.token());
                if (!EvmLog.isZero(t.from())) {
                    d.merge(new Pair(t.token(), t.from()), t.amount().negate(), BigInteger::add);
                    sides++;
                }
                if (!EvmLog.isZero(t.to())) {
                    d.merge(new Pair(t.token(), t.to()), t.amount(), BigInteger::add);
                    sides++;
                }
            }
            if (!d.isEmpty()) heights.add(new Height(h, d, sides));
        }
        return new RunDeltas(heights, denoms, tokens);
    }

    public List<Height> heights() {
        return heights;
    }

    /** Bank denoms the run's txs move. */
    public Set<String> denoms() {
        return denoms;
    }

    /** Token contracts with a Transfer in the run. */
    public Set<AccountAddress> tokens() {
        return tokens;
    }

    /** Every (token, account) the run changes. */
    public Set<Pair> pairs() {
        Set<Pair> out = new LinkedHashSet<>();
        for (Height h : heights) out.addAll(h.deltas().keySet());
        return out;
    }

    /** The first height up to {@code upTo} at which some balance would be negative, applying the run to {@code before}; or null. */
    public Negative firstNegative(Map<Pair, BigInteger> before, long upTo) {
        Map<Pair, BigInteger> bal = new LinkedHashMap<>();
        for (Height h : heights) {
            if (h.height() > upTo) break;
            Set<AccountAddress> negative = new LinkedHashSet<>();
            for (Map.Entry<Pair, BigInteger> e : h.deltas().entrySet()) {
                BigInteger b = bal.computeIfAbsent(e.getKey(), k -> before.getOrDefault(k, BigInteger.ZERO))
                        .add(e.getValue());
                bal.put(e.getKey(), b);
                if (b.signum() < 0) negative.add(e.getKey().token());
            }
            if (!negative.isEmpty()) return new Negative(h.height(), negative);
        }
        return null;
    }

    /** The summed deltas of the heights up to {@code upTo} (inclusive), leaving out some tokens. */
    public Map<Pair, BigInteger> net(long upTo, Set<AccountAddress> except) {
        Map<Pair, BigInteger> out = new LinkedHashMap<>();
        for (Height h : heights) {
            if (h.height() > upTo) break;
            for (Map.Entry<Pair, BigInteger> e : h.deltas().entrySet()) {
                if (!except.contains(e.getKey().token())) out.merge(e.getKey(), e.getValue(), BigInteger::add);
            }
        }
        return out;
    }

    /** Transfer sides applied up to {@code upTo} (for the deltas-per-second figure). */
    public long sides(long upTo) {
        long n = 0;
        for (Height h : heights) if (h.height() <= upTo) n += h.sides();
        return n;
    }

    /** The accounts of a height's deltas for some tokens (the holders a repair must read besides the known ones). */
    public Map<AccountAddress, Set<AccountAddress>> accountsAt(long height, Collection<AccountAddress> tokensOf) {
        Map<AccountAddress, Set<AccountAddress>> out = new LinkedHashMap<>();
        for (Height h : heights) {
            if (h.height() != height) continue;
            for (Pair p : h.deltas().keySet())
                if (tokensOf.contains(p.token()))
                    out.computeIfAbsent(p.token(), k -> new LinkedHashSet<>()).add(p.account());
        }
        return out;
    }

    /**
     * How many holders (positive balances) each token gains or loses in a transaction, from the balances it left
     * ({@code after}, for the pairs of {@code net}): a pair's balance before was {@code after − net}, or none when the
     * transaction set it ({@code absolutes} are for pairs without a stored row: first sight; a repaired token is
     * recounted instead).
     */
    public static Map<AccountAddress, Long> holderDeltas(
            Map<Pair, BigInteger> after, Map<Pair, BigInteger> net, Map<Pair, BigInteger> absolutes) {
        Map<AccountAddress, Long> out = new LinkedHashMap<>();
        Set<Pair> pairs = new LinkedHashSet<>(net.keySet());
        pairs.addAll(absolutes.keySet());
        for (Pair p : pairs) {
            BigInteger now = net.containsKey(p) ? after.getOrDefault(p, BigInteger.ZERO) : absolutes.get(p);
            BigInteger old = absolutes.containsKey(p) ? BigInteger.ZERO : now.subtract(net.get(p));
            int change = (now.signum() > 0 ? 1 : 0) - (old.signum() > 0 ? 1 : 0);
            if (change != 0) out.merge(p.token(), (long) change, Long::sum);
        }
        out.values().removeIf(v -> v == 0);
        return out;
    }

    /** The balances before a transaction that left {@code after} by adding {@code net}. */
    public static Map<Pair, BigInteger> before(Map<Pair, BigInteger> after, Map<Pair, BigInteger> net) {
        Map<Pair, BigInteger> out = new LinkedHashMap<>();
        net.forEach((p, d) -> out.put(p, after.getOrDefault(p, BigInteger.ZERO).subtract(d)));
        return out;
    }

    /** The accounts the run moves. */
    public Set<AccountAddress> accounts() {
        Set<AccountAddress> out = new LinkedHashSet<>();
        for (Height h : heights) for (Pair p : h.deltas().keySet()) out.add(p.account());
        return out;
    }
}
