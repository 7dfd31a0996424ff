package dev.weft.devnet.fault;

import dev.weft.devnet.config.DevnetConfig.FaultConfig;
import dev.weft.devnet.gen.Mix;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Decides the faults of each request from a hash of (fault seed, request, attempt number of that same request), so a
 * test sees the same faults whatever the order or timing of its requests. A request is the method, URI and body; the
 * n-th identical request is attempt n. Counts what it injected (tests and the banner read them).
 */
public final class FaultInjector {
    public enum Kind {
        NONE,
        ERROR,
        TRUNCATE
    }

    /** What to do with one request. */
    public record Decision(Kind kind, boolean delay) {}

    private static final Decision CLEAN = new Decision(Kind.NONE, false);
    private static final int MAX_TRACKED = 500_000;
    private static final long TAG_ERROR = 1, TAG_TRUNCATE = 2, TAG_DELAY = 3, TAG_SHORT = 4, TAG_SHORT_COUNT = 5;

    private final FaultConfig config;
    private final ConcurrentHashMap<Long, AtomicInteger> attempts = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<Long, AtomicInteger> shortAttempts = new ConcurrentHashMap<>();
    private final AtomicLong errors = new AtomicLong();
    private final AtomicLong truncations = new AtomicLong();
    private final AtomicLong delays = new AtomicLong();
    private final AtomicLong shortAnswers = new AtomicLong();

    public FaultInjector(FaultConfig config) {
        this.config = config;
    }

    public FaultConfig config() {
        return config;
    }

    public Decision decide(String request) {
        if (config.errorRate() <= 0 && config.truncateRate() <= 0 && config.delayRate() <= 0) return CLEAN;
        long key = fnv(request);
        int attempt = next(attempts, key);
        long s = config.seed();
        boolean delay = Mix.unit(Mix.hash(s, key, attempt, TAG_DELAY)) < config.delayRate();
        Kind kind = Mix.unit(Mix.hash(s, key, attempt, TAG_ERROR)) < config.errorRate()
                ? Kind.ERROR
                : Mix.unit(Mix.hash(s, key, attempt, TAG_TRUNCATE)) < config.truncateRate() ? Kind.TRUNCATE : Kind.NONE;
        if (delay) delays.incrementAndGet();
        if (kind == Kind.ERROR) errors.incrementAndGet();
        if (kind == Kind.TRUNCATE) truncations.incrementAndGet();
        return kind == Kind.NONE && !delay ? CLEAN : new Decision(kind, delay);
    }

    /**
     * How many of a block's {@code total} txs the REST API returns: fewer, for the first {@code short_rest_attempts}
     * requests of a height picked with probability {@code short_rest_rate} (a node that has not finished indexing a
     * block), then all of them.
     */
    public int restTxCount(long height, int total) {
        if (config.shortRestRate() <= 0 || total == 0) return total;
        if (Mix.unit(Mix.hash(config.seed(), TAG_SHORT, height)) >= config.shortRestRate()) return total;
        int attempt = next(shortAttempts, height);
        if (attempt >= config.shortRestAttempts()) return total;
        shortAnswers.incrementAndGet();
        return Mix.below(Mix.hash(config.seed(), TAG_SHORT_COUNT, height, attempt), total);
    }

    /** How long to hold an answer: the fixed latency, plus the delay of a delayed request. */
    public long waitMillis(Decision d) {
        return config.latency().toMillis()
                + (d.delay() ? Math.max(1, config.delay().toMillis()) : 0);
    }

    private static int next(ConcurrentHashMap<Long, AtomicInteger> map, long key) {
        if (map.size() > MAX_TRACKED) map.clear();
        return map.computeIfAbsent(key, k -> new AtomicInteger()).getAndIncrement();
    }

    private static long fnv(String s) {
        long h = 0xcbf29ce484222325L;
        for (int i = 0; i < s.length(); i++) {
            h ^= s.charAt(i);
            h *= 0x100000001b3L;
        }
        return h;
    }

    public long errors() {
        return errors.get();
    }

    public long truncations() {
        return truncations.get();
    }

    public long delays() {
        return delays.get();
    }

    public long shortAnswers() {
        return shortAnswers.get();
    }
}
