package dev.weft.route.graph;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.route.RouteFixtures;
import dev.weft.route.registry.Registry;
import org.junit.jupiter.api.Test;

/** The graph's transfer reachability, which lets the search skip swaps whose output can never arrive. */
class RouteGraphTest {
    private final RouteGraph g = RouteFixtures.service().graph();
    private final Registry r = g.registry();

    private int node(String chain, String denom) {
        int n = g.nodeOf(r.asset(chain, denom));
        assertTrue(n >= 0, chain + "/" + denom);
        return n;
    }

    @Test
    void transfersReachTheDestinationFromItsOtherForms() {
        int initL1 = node("interwoven-1", "uinit");
        boolean[] reaches = g.reachesByTransfers(initL1);
        assertTrue(reaches[initL1]);
        // INIT deposited to Echelon comes back by an OPinit withdrawal
        assertTrue(reaches[node("echelon-1", RouteFixtures.INIT_ECHELON)]);
        // USDC reaches INIT only through a swap
        assertFalse(reaches[node("interwoven-1", RouteFixtures.USDC_INITIA)]);
        assertFalse(reaches[node("echelon-1", RouteFixtures.USDC_ECHELON)]);
        assertSame(reaches, g.reachesByTransfers(initL1), "computed once per destination");
    }

    @Test
    void aNodeReachesByTransfersWhenTheSearchFindsARouteWithoutSwaps() {
        RouteLimits noSwaps = new RouteLimits(
                java.util.EnumSet.complementOf(java.util.EnumSet.of(Edge.Kind.SWAP)), false, null, false);
        int checked = 0;
        for (String[] dest : new String[][] {
            {"interwoven-1", "uinit"}, {"echelon-1", RouteFixtures.USDC_ECHELON}, {"weft-l1-1", "uusdc"}
        }) {
            int dst = node(dest[0], dest[1]);
            boolean[] reaches = g.reachesByTransfers(dst);
            for (int n = 0; n < g.nodeCount(); n++) {
                if (n == dst) continue;
                RouteSearch.Result found = RouteSearch.find(
                        g,
                        g.asset(n),
                        g.asset(dst),
                        java.math.BigInteger.valueOf(1_000_000),
                        RouteSearch.OpWithdrawPolicy.AVOID,
                        64,
                        noSwaps);
                // reaching by transfers may pass a chain twice, which no route does: the search finds a subset
                if (found.path() != null) {
                    assertTrue(
                            reaches[n], g.asset(n).key() + " to " + g.asset(dst).key());
                    checked++;
                }
            }
        }
        assertTrue(checked > 3, "some nodes reach each destination: " + checked);
    }
}
