package dev.weft.richlist;

import dev.weft.runtime.SharedMeters;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.concurrent.atomic.AtomicLong;

/**
 * {@code weft_richlist_*} metrics, per chain and meter registry ({@link SharedMeters}), so a redeployed verticle keeps
 * updating the gauge already registered.
 */
public final class RichListMetrics {
    /** Transfer sides applied (a transfer between two accounts is two). */
    public final Counter deltas;

    final Counter repairs;
    final Counter reindexes;
    final AtomicLong height = new AtomicLong();

    public static RichListMetrics forChain(String chainId) {
        return SharedMeters.of("richlist/" + chainId, r -> new RichListMetrics(chainId, r));
    }

    private RichListMetrics(String chainId, MeterRegistry r) {
        deltas = Counter.builder("weft_richlist_deltas_total")
                .description("balance deltas applied (transfer sides)")
                .tag("chain_id", chainId)
                .register(r);
        repairs = Counter.builder("weft_richlist_repairs_total")
                .description("tokens re-read after a balance would have gone negative")
                .tag("chain_id", chainId)
                .register(r);
        reindexes = Counter.builder("weft_richlist_reindexes_total")
                .description("online rebuilds of the rank index after many balance writes")
                .tag("chain_id", chainId)
                .register(r);
        Gauge.builder("weft_richlist_height", height, AtomicLong::get)
                .description("last fully applied height")
                .tag("chain_id", chainId)
                .register(r);
    }
}
