package dev.weft.devnet;

import static org.junit.jupiter.api.Assertions.fail;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * Walks a recorded real response and a devnet answer side by side: the same field names (in the same order when the
 * node prints them in order), the same JSON types (string vs number vs boolean, null vs [] vs {}), and the same string
 * encodings (upper-case hex, 0x hex, decimal, RFC 3339 time, and hash lengths). Paths look like
 * {@code result.block.header.version.app}, with {@code []} for array elements.
 */
final class WireShape {
    private static final Pattern UPPER_HEX = Pattern.compile("[0-9A-F]+");
    private static final Pattern HEX_0X = Pattern.compile("0x[0-9a-fA-F]*");
    private static final Pattern DECIMAL = Pattern.compile("-?[0-9]+");
    private static final Pattern TIME = Pattern.compile("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d(\\.\\d+)?Z");

    private final boolean ordered;
    private final Set<String> absentOk = new TreeSet<>();
    private final Set<String> extraOk = new TreeSet<>();
    private final Set<String> typeOk = new TreeSet<>();
    private final List<String> problems = new ArrayList<>();

    private WireShape(boolean ordered) {
        this.ordered = ordered;
    }

    /** Field order must match too (the node prints struct fields in declaration order). */
    static WireShape ordered() {
        return new WireShape(true);
    }

    /** Field names as sets (the recording re-sorted its keys, or the node prints a Go map). */
    static WireShape unordered() {
        return new WireShape(false);
    }

    /** Fields of the recording the devnet does not print (each with a reason at the call site). */
    WireShape absent(String... paths) {
        absentOk.addAll(List.of(paths));
        return this;
    }

    /** Fields the devnet prints that the recording lacks. */
    WireShape extra(String... paths) {
        extraOk.addAll(List.of(paths));
        return this;
    }

    /** Paths whose JSON type may differ (e.g. null in an empty kvstore block, an object on a Cosmos SDK chain). */
    WireShape typeMayDiffer(String... paths) {
        typeOk.addAll(List.of(paths));
        return this;
    }

    void check(Object fixture, Object actual) {
        walk("", fixture, actual);
        if (!problems.isEmpty())
            fail("the devnet's answer differs from the real one:\n  " + String.join("\n  ", problems));
    }

    private void walk(String path, Object f, Object a) {
        if (typeOk.contains(path)) return;
        String tf = type(f);
        String ta = type(a);
        if (!tf.equals(ta)) {
            problems.add(path + ": real " + tf + " " + brief(f) + ", devnet " + ta + " " + brief(a));
            return;
        }
        switch (tf) {
            case "object" -> object(path, (JsonObject) f, (JsonObject) a);
            case "array" -> {
                JsonArray fa = (JsonArray) f;
                JsonArray aa = (JsonArray) a;
                if (!fa.isEmpty() && !aa.isEmpty())
                    for (int i = 0; i < aa.size(); i++)
                        walk(path + "[]", fa.getValue(Math.min(i, fa.size() - 1)), aa.getValue(i));
            }
            case "string" -> string(path, (String) f, (String) a);
            default -> {}
        }
    }

    private void object(String path, JsonObject f, JsonObject a) {
        String prefix = path.isEmpty() ? "" : path + ".";
        List<String> fNames = new ArrayList<>();
        for (String n : f.fieldNames()) if (!absentOk.contains(prefix + n)) fNames.add(n);
        List<String> aNames = new ArrayList<>();
        for (String n : a.fieldNames()) if (!extraOk.contains(prefix + n)) aNames.add(n);
        boolean same = ordered ? fNames.equals(aNames) : new TreeSet<>(fNames).equals(new TreeSet<>(aNames));
        if (!same)
            problems.add((path.isEmpty() ? "(top)" : path) + ": real fields " + fNames + ", devnet fields " + aNames);
        for (String n : f.fieldNames()) if (a.containsKey(n)) walk(prefix + n, f.getValue(n), a.getValue(n));
    }

    private void string(String path, String f, String a) {
        if (f.isEmpty() || a.isEmpty()) return;
        String cf = category(f);
        String ca = category(a);
        boolean hexOrDigits = f.length() >= 16 && a.length() >= 16 && (cf + ca).matches("(digits|upper-hex){2}");
        if (!cf.equals(ca) && !hexOrDigits) {
            problems.add(path + ": real " + cf + " \"" + brief(f) + "\", devnet " + ca + " \"" + brief(a) + "\"");
        } else if ((cf.equals("upper-hex") && f.length() == 64
                        || cf.equals("0x-hex") && (f.length() == 66 || f.length() == 42))
                && f.length() != a.length()) {
            problems.add(path + ": real hash of " + f.length() + " chars, devnet " + a.length() + " chars");
        }
    }

    /** A string's encoding; an all-digit string is "digits" (a decimal, or hex that happens to have no letter). */
    static String category(String s) {
        if (DECIMAL.matcher(s).matches()) return s.startsWith("-") ? "decimal" : "digits";
        if (HEX_0X.matcher(s).matches()) return "0x-hex";
        if (UPPER_HEX.matcher(s).matches() && s.length() >= 16) return "upper-hex";
        if (TIME.matcher(s).matches()) return "time";
        return "text";
    }

    private static String type(Object o) {
        if (o == null) return "null";
        if (o instanceof JsonObject) return "object";
        if (o instanceof JsonArray) return "array";
        if (o instanceof String) return "string";
        if (o instanceof Number) return "number";
        if (o instanceof Boolean) return "boolean";
        return o.getClass().getSimpleName();
    }

    private static String brief(Object o) {
        String s = String.valueOf(o);
        return s.length() > 40 ? s.substring(0, 40) + "…" : s;
    }
}
