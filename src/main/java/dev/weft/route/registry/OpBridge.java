package dev.weft.route.registry;

import java.time.Duration;
import java.util.List;

/**
 * An OPinit bridge between an L1 and a rollup: deposits mint {@code l2/<sha3-256(be64(bridge id) ‖ l1 denom)>} on the
 * rollup, withdrawals are claimable on the L1 after the finalization period.
 */
public record OpBridge(
        long bridgeId,
        String l1ChainId,
        String l2ChainId,
        List<String> opDenoms,
        String executorUri,
        Duration finalizationPeriod) {}
