package dev.weft.chain.model;

import java.time.Instant;
import java.time.format.DateTimeParseException;

/** Timestamps as Go prints them: {@code time.RFC3339Nano} (trailing zeros of the fraction dropped) and {@code time.RFC3339}. */
public final class Rfc3339 {
    private Rfc3339() {}

    /** Nanoseconds since the epoch of an RFC 3339 timestamp with any fraction (CometBFT header times). */
    public static long parseNanos(String s) {
        if (s == null || s.isEmpty()) throw new IllegalArgumentException("missing timestamp");
        try {
            Instant i = java.time.OffsetDateTime.parse(s).toInstant();
            return Math.addExact(Math.multiplyExact(i.getEpochSecond(), 1_000_000_000L), i.getNano());
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException("not an RFC 3339 timestamp: " + s);
        }
    }

    /** Go {@code RFC3339Nano} in UTC: {@code 2023-05-17T14:12:53.088875124Z}, {@code 2025-08-20T10:20:52Z}, {@code …:53.1Z}. */
    public static String nanos(long epochNanos) {
        long sec = Math.floorDiv(epochNanos, 1_000_000_000L);
        int nano = (int) Math.floorMod(epochNanos, 1_000_000_000L);
        StringBuilder sb = dateTime(new StringBuilder(32), sec);
        if (nano != 0) {
            int digits = 9;
            while (nano % 10 == 0) {
                nano /= 10;
                digits--;
            }
            sb.append('.');
            pad(sb, nano, digits);
        }
        return sb.append('Z').toString();
    }

    /** Go {@code RFC3339} in UTC, whole seconds: {@code 2025-11-03T08:15:30Z}. */
    public static String seconds(long epochNanos) {
        return dateTime(new StringBuilder(20), Math.floorDiv(epochNanos, 1_000_000_000L))
                .append('Z')
                .toString();
    }

    /**
     * {@code uuuu-MM-ddTHH:mm:ss} of epoch seconds in UTC, by hand (the civil date from the day number, proleptic
     * Gregorian), cheaper than a {@code DateTimeFormatter}. Epoch nanoseconds in a {@code long} span the years 1677 to
     * 2262, so the year always has four digits.
     */
    private static StringBuilder dateTime(StringBuilder sb, long sec) {
        long days = Math.floorDiv(sec, 86_400L);
        int ofDay = (int) Math.floorMod(sec, 86_400L);
        // days since 0000-03-01, in 400-year eras of 146,097 days; a year here starts in March, so February ends it
        long z = days + 719_468L;
        long era = Math.floorDiv(z, 146_097L);
        int ofEra = (int) (z - era * 146_097L);
        int yearOfEra = (ofEra - ofEra / 1_460 + ofEra / 36_524 - ofEra / 146_096) / 365;
        int dayOfYear = ofEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100);
        int monthFromMarch = (5 * dayOfYear + 2) / 153;
        int day = dayOfYear - (153 * monthFromMarch + 2) / 5 + 1;
        int month = monthFromMarch < 10 ? monthFromMarch + 3 : monthFromMarch - 9;
        long year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0);
        pad(sb, (int) year, 4);
        pad(sb.append('-'), month, 2);
        pad(sb.append('-'), day, 2);
        pad(sb.append('T'), ofDay / 3_600, 2);
        pad(sb.append(':'), ofDay / 60 % 60, 2);
        pad(sb.append(':'), ofDay % 60, 2);
        return sb;
    }

    /** {@code value} (≥ 0) in exactly {@code digits} digits, zero-padded on the left. */
    private static void pad(StringBuilder sb, int value, int digits) {
        for (int d = digits - 1; d >= 0; d--) {
            int div = 1;
            for (int i = 0; i < d; i++) div *= 10;
            sb.append((char) ('0' + value / div % 10));
        }
    }
}
