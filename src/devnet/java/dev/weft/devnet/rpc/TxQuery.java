package dev.weft.devnet.rpc;

import dev.weft.devnet.gen.Event;
import dev.weft.devnet.gen.Tx;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A CometBFT tx query: conditions joined by {@code AND}, each {@code key op value} with op one of
 * {@code = < <= > >= CONTAINS EXISTS}; keys {@code tx.hash}, {@code tx.height} or {@code <event type>.<attribute>}
 * (matched against the tx's events, as the kv indexer does); values quoted strings or numbers.
 */
public record TxQuery(List<Condition> conditions) {
    private static final Pattern CONDITION =
            Pattern.compile("\\s*([^\\s=<>]+)\\s*(<=|>=|=|<|>|CONTAINS|EXISTS)\\s*('([^']*)'|[^\\s']+)?\\s*");

    public record Condition(String key, String op, String value) {
        boolean numeric() {
            return isNumber(value);
        }
    }

    public static TxQuery parse(String q) {
        if (q == null || q.isBlank()) throw new IllegalArgumentException("query cannot be empty");
        List<Condition> out = new ArrayList<>();
        for (String part : q.split("\\s+AND\\s+")) {
            Matcher m = CONDITION.matcher(part);
            if (!m.matches()) throw new IllegalArgumentException("failed to parse query: " + q);
            String op = m.group(2);
            String value = m.group(4) != null ? m.group(4) : m.group(3);
            if (!op.equals("EXISTS") && value == null)
                throw new IllegalArgumentException("failed to parse query: " + q);
            out.add(new Condition(m.group(1), op, value));
        }
        return new TxQuery(out);
    }

    /** Event types the generator emits: a query naming only other types can skip the generated txs. */
    private static final java.util.Set<String> GENERATED_EVENT_TYPES =
            java.util.Set.of("tx", "message", "call", "evm", "create", "coin_spent", "coin_received", "transfer");

    /** Whether some condition names an event type that only submitted txs carry (so no generated tx can match). */
    public boolean onlySubmittedEvents() {
        for (Condition c : conditions) {
            int dot = c.key.lastIndexOf('.');
            if (c.key.startsWith("tx.") || dot <= 0) continue;
            if (!GENERATED_EVENT_TYPES.contains(c.key.substring(0, dot))) return true;
        }
        return false;
    }

    /** The tx hash of a {@code tx.hash = '…'} condition, upper-case, or null. */
    public String hash() {
        for (Condition c : conditions)
            if (c.key.equals("tx.hash") && c.op.equals("=")) return c.value.toUpperCase(Locale.ROOT);
        return null;
    }

    /** Lowest height the conditions allow (or {@code lo}). */
    public long minHeight(long lo) {
        long min = lo;
        for (Condition c : conditions) {
            if (!c.key.equals("tx.height") || !c.numeric()) continue;
            long v = new BigDecimal(c.value).longValue();
            switch (c.op) {
                case "=", ">=" -> min = Math.max(min, v);
                case ">" -> min = Math.max(min, v + 1);
                default -> {}
            }
        }
        return min;
    }

    /** Highest height the conditions allow (or {@code hi}). */
    public long maxHeight(long hi) {
        long max = hi;
        for (Condition c : conditions) {
            if (!c.key.equals("tx.height") || !c.numeric()) continue;
            long v = new BigDecimal(c.value).longValue();
            switch (c.op) {
                case "=", "<=" -> max = Math.min(max, v);
                case "<" -> max = Math.min(max, v - 1);
                default -> {}
            }
        }
        return max;
    }

    public boolean matches(long height, Tx tx) {
        for (Condition c : conditions) {
            boolean ok = switch (c.key) {
                case "tx.hash" -> compare(tx.hash, c.op, c.value.toUpperCase(Locale.ROOT));
                case "tx.height" -> compare(Long.toString(height), c.op, c.value);
                default -> eventMatch(tx, c);
            };
            if (!ok) return false;
        }
        return true;
    }

    /** Whether a block matches: {@code tx.height} conditions hold for its height, event conditions for its events. */
    public boolean matchesBlock(long height, List<Event> events) {
        for (Condition c : conditions) {
            boolean ok =
                    c.key.equals("tx.height") ? compare(Long.toString(height), c.op, c.value) : eventMatch(events, c);
            if (!ok) return false;
        }
        return true;
    }

    private static boolean eventMatch(Tx tx, Condition c) {
        return eventMatch(tx.events, c);
    }

    private static boolean eventMatch(List<Event> events, Condition c) {
        int dot = c.key.lastIndexOf('.');
        if (dot <= 0) return false;
        String type = c.key.substring(0, dot);
        String attr = c.key.substring(dot + 1);
        for (Event e : events) {
            if (!e.type().equals(type)) continue;
            for (Event.Attr a : e.attributes()) {
                if (a.key().equals(attr) && compare(a.value(), c.op, c.value)) return true;
            }
        }
        return false;
    }

    private static boolean compare(String actual, String op, String expected) {
        switch (op) {
            case "EXISTS":
                return true;
            case "CONTAINS":
                return actual.contains(expected);
            case "=":
                if (isNumber(actual) && isNumber(expected))
                    return new BigDecimal(actual).compareTo(new BigDecimal(expected)) == 0;
                return actual.equals(expected);
            default:
                if (!isNumber(actual) || !isNumber(expected)) return false;
                int cmp = new BigDecimal(actual).compareTo(new BigDecimal(expected));
                return switch (op) {
                    case "<" -> cmp < 0;
                    case "<=" -> cmp <= 0;
                    case ">" -> cmp > 0;
                    default -> cmp >= 0;
                };
        }
    }

    private static boolean isNumber(String s) {
        if (s == null || s.isEmpty() || s.length() > 40) return false;
        for (int i = 0; i < s.length(); i++) {
            char ch = s.charAt(i);
            if (!(ch >= '0' && ch <= '9') && !(i == 0 && ch == '-' && s.length() > 1) && ch != '.') return false;
        }
        return s.chars().filter(ch -> ch == '.').count() <= 1 && !s.equals(".");
    }
}
