package dev.weft.pipeline;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The time in which no commit ran, by what the commit loop waited for. During a catch-up the commits are the writer's
 * whole work: time waiting on fetches means the node side (round trips, parsing) is the limit, little idle time means
 * the database writer is.
 */
public final class CommitIdle {
    /** What the commit loop waits for while no commit runs. */
    public enum Waiting {
        /** The next height's fetch, or more fetched heights for a fuller run. */
        FETCH,
        /** A run being prepared (its dictionary ids read, its rows rendered). */
        PREPARE,
        /** New blocks: everything up to the chain's head is committed. */
        HEAD,
        /** The retry after a failed commit or preparation. */
        RETRY;

        public String label() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    private final AtomicLong[] nanos = new AtomicLong[Waiting.values().length];

    public CommitIdle() {
        for (int i = 0; i < nanos.length; i++) nanos[i] = new AtomicLong();
    }

    /** One pipeline's current interval (the counters may outlive it: a later pipeline of the same chain adds to them). */
    static final class Clock {
        private final CommitIdle counters;
        /** When the current interval began (none before the first note) and what it waits for (null: a commit runs). */
        private long since = Long.MIN_VALUE;

        private CommitIdle.Waiting waiting;

        Clock(CommitIdle counters) {
            this.counters = counters;
        }

        /**
         * Ends the current interval at {@code now}, adding it to what the loop waited for during it (nothing if a commit
         * ran), and starts the next one waiting for {@code next} (null: a commit runs). Event-loop only.
         */
        void note(long now, Waiting next) {
            if (since != Long.MIN_VALUE && waiting != null)
                counters.nanos[waiting.ordinal()].addAndGet(Math.max(0, now - since));
            since = now;
            waiting = next;
        }
    }

    /** The idle time waiting for {@code w} so far, in nanoseconds (any thread). */
    public long nanos(Waiting w) {
        return nanos[w.ordinal()].get();
    }

    /** Registers one counter {@code <prefix>_commit_idle_seconds_total{waiting}} per cause (seconds). */
    void register(MeterRegistry r, String prefix, String chainId) {
        for (Waiting w : Waiting.values()) {
            FunctionCounter.builder(prefix + "_commit_idle_seconds", nanos[w.ordinal()], n -> n.get() / 1e9)
                    .description("time no commit ran, by what the commit loop waited for")
                    .baseUnit("seconds")
                    .tag("chain_id", chainId)
                    .tag("waiting", w.label())
                    .register(r);
        }
    }
}
