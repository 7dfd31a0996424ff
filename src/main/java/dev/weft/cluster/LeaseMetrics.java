package dev.weft.cluster;

import dev.weft.runtime.SharedMeters;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * {@code weft_lease_*} metrics of one single-writer lease on this node: whether it is held, and how often it was taken
 * and lost (a lease that changes hands often is flapping: alerting reads these).
 */
final class LeaseMetrics {
    final Counter acquired;
    final Counter lost;
    final AtomicInteger held = new AtomicInteger();

    static LeaseMetrics of(String role, String chainId) {
        return SharedMeters.of("lease/" + role + "/" + chainId, r -> new LeaseMetrics(role, chainId, r));
    }

    private LeaseMetrics(String role, String chainId, MeterRegistry r) {
        acquired = Counter.builder("weft_lease_acquired_total")
                .description("times this node took the single-writer lease")
                .tag("role", role)
                .tag("chain_id", chainId)
                .register(r);
        lost = Counter.builder("weft_lease_lost_total")
                .description("times this node lost the single-writer lease while holding it")
                .tag("role", role)
                .tag("chain_id", chainId)
                .register(r);
        Gauge.builder("weft_lease_held", held, AtomicInteger::get)
                .description("1 while this node holds the lease and runs the role")
                .tag("role", role)
                .tag("chain_id", chainId)
                .register(r);
    }
}
