package dev.weft.richlist;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.weft.chain.AccountAddress;
import dev.weft.store.RichListStore.Pair;
import dev.weft.store.RichListStore.StoredTransfer;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** Balance deltas from stored ERC-20 transfer rows: a self-transfer, and synthetic runs for the negative-balance search. */
class RunDeltasTest {
    static final String TOKEN = "0xe1ff7038eaaaf027031688e1535a055b2bac2546";
    static final String SENDER = "0xb395c9f2e84f75b1686fcdc62f8cb62a572b7820";
    static final String COLLECTOR = "0xf1829676db577682e944fc3493d451b67ff3e29f";

    static AccountAddress a(String hex) {
        return AccountAddress.parse(hex, "init");
    }

    static Pair p(String token, String account) {
        return new Pair(a(token), a(account));
    }

    /** A height's stored ERC-20 transfers (token, from, to, amount). */
    static List<StoredTransfer> tx(long h, String[]... transfers) {
        List<StoredTransfer> out = new ArrayList<>();
        for (String[] t : transfers) out.add(new StoredTransfer(h, a(t[0]), a(t[1]), a(t[2]), new BigInteger(t[3])));
        return out;
    }

    @SafeVarargs
    static RunDeltas of(List<StoredTransfer>... heights) {
        List<StoredTransfer> all = new ArrayList<>();
        for (List<StoredTransfer> h : heights) all.addAll(h);
        return RunDeltas.of(all, Set.of("uinit"));
    }

    @Test
    @DisplayName("a self-transfer nets to zero but counts its two sides; the denoms pass through")
    void selfTransfer() {
        RunDeltas d = of(tx(11671668, new String[] {TOKEN, SENDER, COLLECTOR, "832675000000"}, new String[] {
            TOKEN, SENDER, SENDER, "10000000000000"
        }));
        assertEquals(
                Map.of(
                        p(TOKEN, SENDER),
                        new BigInteger("832675000000").negate(),
                        p(TOKEN, COLLECTOR),
                        new BigInteger("832675000000")),
                d.net(Long.MAX_VALUE, Set.of()),
                "the self-send nets to zero");
        assertEquals(4, d.sides(Long.MAX_VALUE));
        assertEquals(Set.of("uinit"), d.denoms());
    }

    static final String T = "0x" + "77".repeat(20);
    static final String U = "0x" + "88".repeat(20);
    static final String ZERO = "0x" + "00".repeat(20);
    static final String A = "0x" + "a1".repeat(20);
    static final String B = "0x" + "b0".repeat(20);

    @Test
    @DisplayName(
            "per height: mints and burns move one side; the first height with a negative balance and its tokens; holder count changes")
    void negativeSearch() {
        RunDeltas d = of(
                tx(10, new String[] {T, ZERO, A, "100"}),
                tx(11, new String[] {T, A, B, "60"}, new String[] {U, B, A, "5"}),
                tx(11, new String[] {T, B, ZERO, "10"}),
                tx(13, new String[] {T, A, B, "50"}));
        assertEquals(
                List.of(10L, 11L, 13L),
                d.heights().stream().map(RunDeltas.Height::height).toList());
        RunDeltas.Negative n = d.firstNegative(Map.of(), Long.MAX_VALUE);
        assertEquals(11, n.height(), "B sends 5 U it never received");
        assertEquals(Set.of(a(U)), n.tokens());
        assertEquals(
                new RunDeltas.Negative(13, Set.of(a(T))),
                d.firstNegative(Map.of(p(U, B), BigInteger.TEN), Long.MAX_VALUE),
                "A sends 50 of its 40");
        assertNull(d.firstNegative(Map.of(p(U, B), BigInteger.TEN), 12), "heights after 12 are not looked at");
        assertNull(d.firstNegative(Map.of(p(U, B), BigInteger.TEN, p(T, A), BigInteger.TEN), Long.MAX_VALUE));
        assertEquals(Map.of(p(T, A), BigInteger.valueOf(40), p(T, B), BigInteger.valueOf(50)), d.net(11, Set.of(a(U))));
        assertEquals(
                Map.of(
                        p(T, A),
                        BigInteger.valueOf(-10),
                        p(T, B),
                        BigInteger.valueOf(100),
                        p(U, B),
                        BigInteger.valueOf(-5),
                        p(U, A),
                        BigInteger.valueOf(5)),
                d.net(13, Set.of()));
        // stored before: U/B 5, T/A 10; the transaction leaves:
        Map<Pair, BigInteger> after = Map.of(
                p(T, A),
                BigInteger.ZERO,
                p(T, B),
                BigInteger.valueOf(100),
                p(U, B),
                BigInteger.ZERO,
                p(U, A),
                BigInteger.valueOf(5));
        Map<Pair, BigInteger> net = d.net(13, Set.of());
        assertEquals(
                Map.of(
                        p(T, A),
                        BigInteger.TEN,
                        p(T, B),
                        BigInteger.ZERO,
                        p(U, B),
                        BigInteger.valueOf(5),
                        p(U, A),
                        BigInteger.ZERO),
                RunDeltas.before(after, net));
        // T: A 10 → 0 (−1), B 0 → 100 (+1); U: B 5 → 0 (−1), A 0 → 5 (+1)
        assertEquals(Map.of(), RunDeltas.holderDeltas(after, net, Map.of()));
        assertEquals(
                Map.of(a(U), -1L),
                RunDeltas.holderDeltas(
                        Map.of(p(U, B), BigInteger.ZERO), Map.of(p(U, B), BigInteger.valueOf(-5)), Map.of()));
        Map<AccountAddress, Long> withBase = RunDeltas.holderDeltas(
                Map.of(p(T, B), BigInteger.ONE),
                Map.of(p(T, B), BigInteger.ONE),
                Map.of(p(T, A), BigInteger.valueOf(10)));
        assertEquals(Map.of(a(T), 2L), withBase, "a balance read at first sight counts as a holder too");
        assertEquals(8, d.sides(13));
        assertEquals(Set.of(a(A), a(B)), d.accounts());
        assertEquals(Map.of(a(U), Set.of(a(B), a(A))), d.accountsAt(11, Set.of(a(U))));
    }
}
