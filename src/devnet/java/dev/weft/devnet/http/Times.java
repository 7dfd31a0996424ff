package dev.weft.devnet.http;

import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/** The three time formats of the node APIs, from nanoseconds since the epoch (UTC). */
public final class Times {
    private static final DateTimeFormatter SECONDS = DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss");

    private Times() {}

    /** Go's RFC3339Nano (CometBFT RPC): nanoseconds with trailing zeros trimmed, no fraction when zero. */
    public static String rfc3339Nano(long nanos) {
        int frac = (int) Math.floorMod(nanos, 1_000_000_000L);
        StringBuilder sb = new StringBuilder(30).append(seconds(nanos));
        if (frac != 0) {
            String f = String.format("%09d", frac);
            int end = f.length();
            while (f.charAt(end - 1) == '0') end--;
            sb.append('.').append(f, 0, end);
        }
        return sb.append('Z').toString();
    }

    /** Protobuf JSON (gRPC-gateway): 0, 3, 6 or 9 fractional digits. */
    public static String protoTimestamp(long nanos) {
        int frac = (int) Math.floorMod(nanos, 1_000_000_000L);
        StringBuilder sb = new StringBuilder(30).append(seconds(nanos));
        if (frac != 0) {
            String f = String.format("%09d", frac);
            sb.append('.')
                    .append(frac % 1_000_000 == 0 ? f.substring(0, 3) : frac % 1_000 == 0 ? f.substring(0, 6) : f);
        }
        return sb.append('Z').toString();
    }

    /** RFC 3339 to the second (Cosmos {@code tx_response.timestamp}). */
    public static String rfc3339Seconds(long nanos) {
        return seconds(nanos) + "Z";
    }

    private static String seconds(long nanos) {
        return LocalDateTime.ofEpochSecond(Math.floorDiv(nanos, 1_000_000_000L), 0, ZoneOffset.UTC)
                .format(SECONDS);
    }
}
