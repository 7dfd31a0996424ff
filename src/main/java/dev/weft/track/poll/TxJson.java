package dev.weft.track.poll;

import java.time.Instant;

/** RFC 3339 block times of CometBFT 0.38 RPC JSON. */
final class TxJson {
    private TxJson() {}

    /** Nanoseconds since the epoch of an RFC 3339 time (CometBFT writes up to nine fraction digits). */
    static long timeNanos(String rfc3339) {
        if (rfc3339 == null || rfc3339.isEmpty()) return 0;
        Instant i = Instant.parse(rfc3339);
        return i.getEpochSecond() * 1_000_000_000L + i.getNano();
    }
}
