package dev.weft.chain.model;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;

/** Timestamps as Go prints them: {@code time.RFC3339Nano} (trailing zeros of the fraction dropped) and {@code time.RFC3339}. */
public final class Rfc3339 {
  private static final DateTimeFormatter SECONDS = DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss");

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
    StringBuilder sb = new StringBuilder(32).append(LocalDateTime.ofEpochSecond(sec, 0, ZoneOffset.UTC).format(SECONDS));
    if (nano != 0) {
      String f = String.format("%09d", nano);
      int end = f.length();
      while (f.charAt(end - 1) == '0') end--;
      sb.append('.').append(f, 0, end);
    }
    return sb.append('Z').toString();
  }

  /** Go {@code RFC3339} in UTC, whole seconds: {@code 2025-11-03T08:15:30Z}. */
  public static String seconds(long epochNanos) {
    long sec = Math.floorDiv(epochNanos, 1_000_000_000L);
    return LocalDateTime.ofEpochSecond(sec, 0, ZoneOffset.UTC).format(SECONDS) + "Z";
  }
}
