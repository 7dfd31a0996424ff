package dev.weft.chain.model;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.SplittableRandom;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The hand-written timestamp formatting against {@code java.time}'s over the years a chain can have. */
class Rfc3339Test {
    private static final DateTimeFormatter SECONDS = DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss");

    /** What Go's RFC3339Nano prints, through java.time: seconds, then the fraction without its trailing zeros. */
    private static String reference(long epochNanos) {
        long sec = Math.floorDiv(epochNanos, 1_000_000_000L);
        int nano = (int) Math.floorMod(epochNanos, 1_000_000_000L);
        String s = LocalDateTime.ofEpochSecond(sec, 0, ZoneOffset.UTC).format(SECONDS);
        if (nano != 0) s += "." + String.format("%09d", nano).replaceAll("0+$", "");
        return s + "Z";
    }

    private static void check(long epochNanos) {
        assertEquals(reference(epochNanos), Rfc3339.nanos(epochNanos), "nanos " + epochNanos);
        long whole = Math.floorDiv(epochNanos, 1_000_000_000L) * 1_000_000_000L;
        assertEquals(reference(whole), Rfc3339.seconds(epochNanos), "seconds " + epochNanos);
    }

    @Test
    @DisplayName(
            "every day boundary, leap day and fraction length prints as java.time does, over the years epoch nanoseconds span")
    void matchesJavaTime() {
        long min = Math.floorDiv(Long.MIN_VALUE, 1_000_000_000L) + 1; // 1677-09-21
        long max = Long.MAX_VALUE / 1_000_000_000L - 1; // 2262-04-11
        for (String s : new String[] {
            "1970-01-01T00:00:00",
            "1969-12-31T23:59:59",
            "2000-02-29T12:00:00",
            "1900-02-28T23:59:59",
            "1900-03-01T00:00:00",
            "2024-02-29T23:59:59",
            "2100-03-01T00:00:00",
            "1700-03-01T00:00:00",
            "2260-12-31T23:59:59"
        }) {
            long sec = LocalDateTime.parse(s).toEpochSecond(ZoneOffset.UTC);
            for (long nano : new long[] {0, 1, 10, 100_000_000, 120_000_000, 999_999_999, 88_875_124})
                check(sec * 1_000_000_000L + nano);
        }
        SplittableRandom random = new SplittableRandom(11);
        for (int i = 0; i < 200_000; i++) {
            long sec = random.nextLong(min, max + 1);
            long nano = switch (i % 4) {
                case 0 -> 0;
                case 1 -> random.nextInt(1_000) * 1_000_000L;
                case 2 -> random.nextInt(1_000_000) * 1_000L;
                default -> random.nextInt(1_000_000_000);
            };
            check(sec * 1_000_000_000L + nano);
        }
        // day by day over four centuries: every calendar date once
        long day0 = LocalDateTime.of(1800, 1, 1, 0, 0).toEpochSecond(ZoneOffset.UTC);
        for (long d = 0; d < 146_097; d++) check((day0 + d * 86_400L + d % 86_400L) * 1_000_000_000L);
    }
}
