package dev.weft.devnet.ibc;

import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A packet-forward-middleware memo {@code {"forward":{receiver, port, channel, timeout, retries, next}}}: where the
 * intermediate chain sends the tokens on, with what timeout (a Go duration such as {@code "5m"} or nanoseconds; 5
 * minutes when absent) and the memo of the next hop ({@code next} as an object or a JSON string).
 */
record ForwardMemo(String receiver, String port, String channel, Duration timeout, int retries, String next) {
    private static final Duration DEFAULT_TIMEOUT = Duration.ofMinutes(5);
    private static final Pattern GO_DURATION = Pattern.compile("(\\d+(?:\\.\\d+)?)(ns|us|µs|ms|s|m|h)");

    /** The forward of a memo; null when the memo holds none (plain text, hooks). Throws IllegalArgumentException when malformed. */
    static ForwardMemo parse(String memo) {
        if (memo == null || memo.isBlank() || !memo.trim().startsWith("{")) return null;
        JsonObject o;
        try {
            o = new JsonObject(memo);
        } catch (RuntimeException e) {
            return null;
        }
        Object f = o.getValue("forward");
        if (f == null) return null;
        if (!(f instanceof JsonObject fw)) throw new IllegalArgumentException("failed to unmarshal forward metadata");
        String receiver = fw.getString("receiver", "");
        String port = fw.getString("port", "");
        String channel = fw.getString("channel", "");
        if (receiver.isEmpty())
            throw new IllegalArgumentException("failed to validate metadata: receiver cannot be empty");
        if (port.isEmpty() || channel.isEmpty())
            throw new IllegalArgumentException("failed to validate metadata: port and channel cannot be empty");
        Object next = fw.getValue("next");
        String nextMemo = next == null ? "" : next instanceof JsonObject n ? n.encode() : next.toString();
        return new ForwardMemo(
                receiver, port, channel, timeout(fw.getValue("timeout")), fw.getInteger("retries", 0), nextMemo);
    }

    private static Duration timeout(Object v) {
        if (v == null) return DEFAULT_TIMEOUT;
        if (v instanceof Number n) return n.longValue() <= 0 ? DEFAULT_TIMEOUT : Duration.ofNanos(n.longValue());
        String s = v.toString().trim();
        if (s.isEmpty()) return DEFAULT_TIMEOUT;
        Matcher m = GO_DURATION.matcher(s);
        long nanos = 0;
        int at = 0;
        while (m.find() && m.start() == at) {
            double amount = Double.parseDouble(m.group(1));
            nanos += (long) (amount
                    * switch (m.group(2)) {
                        case "ns" -> 1L;
                        case "us", "µs" -> 1_000L;
                        case "ms" -> 1_000_000L;
                        case "s" -> 1_000_000_000L;
                        case "m" -> 60_000_000_000L;
                        default -> 3_600_000_000_000L;
                    });
            at = m.end();
        }
        if (at != s.length() || nanos <= 0)
            throw new IllegalArgumentException("failed to validate metadata: invalid timeout " + s);
        return Duration.ofNanos(nanos);
    }
}
