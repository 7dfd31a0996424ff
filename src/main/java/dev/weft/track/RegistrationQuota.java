package dev.weft.track;

import java.util.HashMap;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * At most {@code perMinute} new tracking registrations per client address and minute (fixed one-minute windows), on
 * one API instance: registrations are what makes the tracker follow a hash, so one client cannot fill its capacity.
 * The table of clients is bounded (it starts afresh when it grows past {@link #MAX_CLIENTS} in one window). Used from
 * one event loop.
 */
public final class RegistrationQuota {
    static final int MAX_CLIENTS = 100_000;
    private final int perMinute;
    private final LongSupplier clock;
    private final Map<String, Integer> counts = new HashMap<>();
    private long window = -1;

    public RegistrationQuota(int perMinute, LongSupplier clockMillis) {
        this.perMinute = perMinute;
        this.clock = clockMillis;
    }

    /** Counts one registration of {@code client}; false when its quota of the current minute is used up. */
    public synchronized boolean allow(String client) {
        long now = clock.getAsLong() / 60_000;
        if (now != window || counts.size() >= MAX_CLIENTS) {
            counts.clear();
            window = now;
        }
        int n = counts.merge(client, 1, Integer::sum);
        return n <= perMinute;
    }

    public int perMinute() {
        return perMinute;
    }

    /** Seconds until the next window (the {@code Retry-After} of a refusal). */
    public long retryAfterSeconds() {
        return 60 - (clock.getAsLong() / 1000) % 60;
    }
}
