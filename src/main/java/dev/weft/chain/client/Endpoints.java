package dev.weft.chain.client;

import java.util.ArrayList;
import java.util.List;
import java.util.function.LongSupplier;

/**
 * The URLs of one node API with their health. Calls go to the current URL; a URL that failed {@code unhealthyAfter}
 * times in a row is set aside for {@code unhealthyFor} and the next healthy one becomes current. When every URL is
 * set aside, the one whose pause ends first is used (never "no URL at all").
 */
public final class Endpoints {
    private final List<String> urls;
    private final int unhealthyAfter;
    private final long unhealthyForMs;
    private final LongSupplier clock;
    private final int[] failures;
    private final long[] pausedUntil;
    private int current;

    public Endpoints(List<String> urls, int unhealthyAfter, long unhealthyForMs, LongSupplier clockMs) {
        if (urls == null || urls.isEmpty()) throw new IllegalArgumentException("no node URL configured");
        List<String> clean = new ArrayList<>();
        for (String u : urls) clean.add(u.endsWith("/") ? u.substring(0, u.length() - 1) : u);
        this.urls = List.copyOf(clean);
        this.unhealthyAfter = Math.max(1, unhealthyAfter);
        this.unhealthyForMs = unhealthyForMs;
        this.clock = clockMs;
        this.failures = new int[clean.size()];
        this.pausedUntil = new long[clean.size()];
    }

    public List<String> all() {
        return urls;
    }

    /** The URL to use now. */
    public synchronized String pick() {
        long now = clock.getAsLong();
        for (int i = 0; i < urls.size(); i++) {
            int idx = (current + i) % urls.size();
            if (pausedUntil[idx] <= now) {
                current = idx;
                return urls.get(idx);
            }
        }
        int best = 0;
        for (int i = 1; i < urls.size(); i++) if (pausedUntil[i] < pausedUntil[best]) best = i;
        current = best;
        return urls.get(best);
    }

    public synchronized void success(String url) {
        int i = urls.indexOf(url);
        if (i >= 0) failures[i] = 0;
    }

    /** Records a failure; returns true when this failure set the URL aside. */
    public synchronized boolean failure(String url) {
        int i = urls.indexOf(url);
        if (i < 0) return false;
        if (++failures[i] < unhealthyAfter) return false;
        failures[i] = 0;
        pausedUntil[i] = clock.getAsLong() + unhealthyForMs;
        if (i == current) current = (current + 1) % urls.size();
        return urls.size() > 1;
    }

    public synchronized boolean healthy(String url) {
        int i = urls.indexOf(url);
        return i >= 0 && pausedUntil[i] <= clock.getAsLong();
    }
}
