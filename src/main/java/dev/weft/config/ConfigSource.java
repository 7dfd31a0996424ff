package dev.weft.config;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Layered configuration lookup by dotted key (for example {@code http.port}). Precedence: system property
 * {@code weft.http.port}, then environment variable {@code WEFT_HTTP_PORT}, then the JSON file ({@code {"http":{"port":…}}}).
 * Every typed getter validates and throws a {@link ConfigException} naming the key.
 */
public final class ConfigSource {
    private static final Pattern DURATION = Pattern.compile("(\\d+)\\s*(ms|s|m|h|d)?");

    private final JsonObject file;
    private final Map<String, String> env;
    private final Map<String, String> sys;
    /** Values a running plugin supplies (the devnet's node URLs), for the keys the layers above leave absent or empty. */
    private final Map<String, String> supplied;
    /** Every key looked up, so the configuration reference can be checked against what the code really reads. */
    private final Set<String> keysRead;
    /**
     * The entry of {@code chains} this source reads a chain's settings from (null: the plain source): its
     * {@code chain.*} keys are the entry's own, and its ingest, EVM and rich-list keys are the entry's overrides over
     * the shared sections.
     */
    private final String chainEntry;
    /** Whether this source reads one chain's settings (the {@code chain} block's when {@link #chainEntry} is null). */
    private final boolean chainScoped;

    public ConfigSource(JsonObject file, Map<String, String> env, Map<String, String> sys) {
        this(file, env, sys, Map.of(), null, false, ConcurrentHashMap.newKeySet());
    }

    private ConfigSource(
            JsonObject file,
            Map<String, String> env,
            Map<String, String> sys,
            Map<String, String> supplied,
            String chainEntry,
            boolean chainScoped,
            Set<String> keysRead) {
        this.file = file == null ? new JsonObject() : file;
        this.env = env;
        this.sys = sys;
        this.supplied = supplied;
        this.chainEntry = chainEntry;
        this.chainScoped = chainScoped;
        this.keysRead = keysRead;
    }

    /** Sections a {@code chains.<chain id>} entry may override for its chain. */
    private static final List<String> PER_CHAIN_SECTIONS = List.of("ingest.", "evm.", "richlist.");

    /**
     * This source as one entry of {@code chains} sees it: {@code chain.vm} is {@code chains.<id>.vm}, and
     * {@code ingest.batch}, when {@code chains.<id>.ingest.batch} is set, is that value. A null id is the
     * {@code chain} block's chain, read as written.
     */
    public ConfigSource forChainEntry(String chainId) {
        return new ConfigSource(file, env, sys, supplied, chainId, true, keysRead);
    }

    /** This source read for the node as a whole rather than for one chain. */
    public ConfigSource forNode() {
        return new ConfigSource(file, env, sys, supplied, null, false, keysRead);
    }

    /** Whether this source reads one chain's settings ({@link #forChainEntry}). */
    public boolean chainScoped() {
        return chainScoped;
    }

    /** The {@code chains} entry this source reads, or null (the node's view, or the {@code chain} block's). */
    public String chainEntry() {
        return chainEntry;
    }

    /** The entries of an object key as they are written (the file's keys and a plugin's supplied entries). */
    public List<String> entryNames(String key) {
        java.util.LinkedHashSet<String> out =
                new java.util.LinkedHashSet<>(object(key).fieldNames());
        return List.copyOf(out);
    }

    /** The key a lookup really reads, so values come from, and errors name, the key the operator writes. */
    private String resolve(String key) {
        if (chainEntry == null) return key;
        String entry = "chains." + chainEntry + ".";
        if (key.startsWith("chain.")) return entry + key.substring("chain.".length());
        for (String section : PER_CHAIN_SECTIONS) {
            if (key.startsWith(section)) {
                String own = entry + key;
                return configuredQuietly(own) != null ? own : key;
            }
        }
        return key;
    }

    /**
     * This source with {@code values} (dotted key → value, lists comma-separated) under it: each fills its key only where
     * the file, the environment and the system properties give none, or an empty string or list.
     */
    public ConfigSource withSupplied(Map<String, String> values) {
        Map<String, String> all = new java.util.LinkedHashMap<>(supplied);
        all.putAll(values);
        return new ConfigSource(file, env, sys, Map.copyOf(all), chainEntry, chainScoped, keysRead);
    }

    /** A source over the given file contents, the process environment and the JVM system properties. */
    public static ConfigSource of(JsonObject file) {
        Map<String, String> sys = new java.util.HashMap<>();
        System.getProperties().forEach((k, v) -> sys.put(String.valueOf(k), String.valueOf(v)));
        return new ConfigSource(file, System.getenv(), sys);
    }

    /** A source over the file contents only, for tests. */
    public static ConfigSource fileOnly(JsonObject file) {
        return new ConfigSource(file, Map.of(), Map.of());
    }

    public static String envName(String key) {
        return "WEFT_" + key.replace('.', '_').replace('-', '_').toUpperCase(java.util.Locale.ROOT);
    }

    /** The value a system property or environment variable gives this key, or null. */
    public String override(String key) {
        keysRead.add(key);
        String s = sys.get("weft." + key);
        return s != null ? s : env.get(envName(key));
    }

    /** The raw value: a String from the environment or system properties, or the JSON value from the file. */
    public Object raw(String key) {
        key = resolve(key);
        Object v = configured(key);
        boolean empty =
                v == null || (v instanceof String str && str.isBlank()) || (v instanceof JsonArray a && a.isEmpty());
        return empty && supplied.containsKey(key) ? supplied.get(key) : v;
    }

    private Object configured(String key) {
        keysRead.add(key);
        return configuredQuietly(key);
    }

    /** {@link #configured} without recording the key as read (probing for a per-chain override). */
    private Object configuredQuietly(String key) {
        String s = sys.get("weft." + key);
        if (s == null) s = env.get(envName(key));
        if (s != null) return s;
        Object cur = file;
        for (String part : key.split("\\.")) {
            if (!(cur instanceof JsonObject o)) return null;
            cur = o.getValue(part);
        }
        return cur;
    }

    public boolean has(String key) {
        return raw(key) != null;
    }

    /**
     * The keys looked up so far, as dotted keys (a map's entries by their own key, e.g. {@code route.rest.<chain id>}
     * with the real chain id).
     */
    public Set<String> keysRead() {
        return Set.copyOf(keysRead);
    }

    public String string(String key, String def) {
        key = resolve(key);
        Object v = raw(key);
        if (v == null) return def;
        if (v instanceof JsonObject || v instanceof JsonArray) throw new ConfigException(key, "must be a string");
        return String.valueOf(v);
    }

    public String requiredString(String key) {
        key = resolve(key);
        String v = string(key, null);
        if (v == null || v.isBlank()) throw new ConfigException(key, "is missing");
        return v;
    }

    /** A string that is null when absent or blank. */
    public String optionalString(String key) {
        String v = string(key, null);
        return v == null || v.isBlank() ? null : v;
    }

    public long longValue(String key, long def, long min, long max) {
        key = resolve(key);
        Object v = raw(key);
        if (v == null) return def;
        long n;
        if (v instanceof Number num) {
            if (num.doubleValue() != Math.rint(num.doubleValue()))
                throw new ConfigException(key, "must be a whole number (got " + v + ")");
            n = num.longValue();
        } else {
            try {
                n = Long.parseLong(String.valueOf(v).trim());
            } catch (NumberFormatException e) {
                throw new ConfigException(key, "must be a whole number (got \"" + v + "\")");
            }
        }
        if (n < min || n > max)
            throw new ConfigException(key, "must be between " + min + " and " + max + " (got " + n + ")");
        return n;
    }

    public int intValue(String key, int def, int min, int max) {
        return (int) longValue(key, def, min, max);
    }

    public double doubleValue(String key, double def, double min, double max) {
        key = resolve(key);
        Object v = raw(key);
        if (v == null) return def;
        double d;
        if (v instanceof Number num) {
            d = num.doubleValue();
        } else {
            try {
                d = Double.parseDouble(String.valueOf(v).trim());
            } catch (NumberFormatException e) {
                throw new ConfigException(key, "must be a number (got \"" + v + "\")");
            }
        }
        if (!(d >= min && d <= max))
            throw new ConfigException(key, "must be between " + min + " and " + max + " (got " + d + ")");
        return d;
    }

    public boolean bool(String key, boolean def) {
        key = resolve(key);
        Object v = raw(key);
        if (v == null) return def;
        if (v instanceof Boolean b) return b;
        String s = String.valueOf(v).trim().toLowerCase(java.util.Locale.ROOT);
        return switch (s) {
            case "true", "yes", "1", "on" -> true;
            case "false", "no", "0", "off" -> false;
            default -> throw new ConfigException(key, "must be true or false (got \"" + v + "\")");
        };
    }

    /** A duration written as a number of milliseconds or with a unit: {@code 500ms}, {@code 2s}, {@code 5m}, {@code 1h}, {@code 7d}. */
    public Duration duration(String key, Duration def) {
        key = resolve(key);
        Object v = raw(key);
        if (v == null) return def;
        if (v instanceof Number n) return Duration.ofMillis(n.longValue());
        Matcher m = DURATION.matcher(String.valueOf(v).trim());
        if (!m.matches())
            throw new ConfigException(key, "must be a duration such as 500ms, 2s, 5m (got \"" + v + "\")");
        long n = Long.parseLong(m.group(1));
        String unit = m.group(2) == null ? "ms" : m.group(2);
        return switch (unit) {
            case "ms" -> Duration.ofMillis(n);
            case "s" -> Duration.ofSeconds(n);
            case "m" -> Duration.ofMinutes(n);
            case "h" -> Duration.ofHours(n);
            default -> Duration.ofDays(n);
        };
    }

    /** A list given as a JSON array in the file, or comma-separated in the environment or system properties. */
    public List<String> stringList(String key, List<String> def) {
        key = resolve(key);
        Object v = raw(key);
        if (v == null) return def;
        List<String> out = new ArrayList<>();
        if (v instanceof JsonArray arr) {
            for (Object o : arr) {
                if (o == null || o instanceof JsonObject || o instanceof JsonArray)
                    throw new ConfigException(key, "must be a list of strings");
                out.add(String.valueOf(o).trim());
            }
        } else if (v instanceof JsonObject) {
            throw new ConfigException(key, "must be a list of strings");
        } else {
            for (String s : String.valueOf(v).split(",")) if (!s.isBlank()) out.add(s.trim());
        }
        return List.copyOf(out);
    }

    /** A nested JSON object of the file (no environment override), or an empty object. */
    public JsonObject object(String key) {
        key = resolve(key);
        Object v = raw(key);
        if (v == null) return new JsonObject();
        if (v instanceof JsonObject o) return o;
        if (v instanceof String s) {
            try {
                return new JsonObject(s);
            } catch (RuntimeException e) {
                throw new ConfigException(key, "must be a JSON object");
            }
        }
        throw new ConfigException(key, "must be a JSON object");
    }

    /**
     * A map of chain id → http(s) URLs ({@code {"<chain id>": ["<url>", …]}}; a value may also be one comma-separated
     * string): the file's object, or the whole object from the environment or a system property, with each chain's own
     * system property {@code weft.<key>.<chain id>} (comma-separated URLs) on top. (A chain id does not survive the
     * environment variable's upper-casing, so per-chain entries exist only as system properties.)
     */
    public Map<String, List<String>> urlsByChain(String key) {
        Map<String, Object> entries = new java.util.LinkedHashMap<>(object(key).getMap());
        String prefix = "weft." + key + ".";
        supplied.forEach((name, value) -> {
            if (name.startsWith(key + ".") && name.length() > key.length() + 1)
                entries.putIfAbsent(name.substring(key.length() + 1), value);
        });
        sys.forEach((name, value) -> {
            if (name.startsWith(prefix) && name.length() > prefix.length())
                entries.put(name.substring(prefix.length()), value);
        });
        Map<String, List<String>> out = new java.util.LinkedHashMap<>();
        entries.forEach((chain, v) -> {
            String chainKey = key + "." + chain;
            keysRead.add(chainKey);
            List<String> urls = new ArrayList<>();
            if (v instanceof JsonArray || v instanceof List<?>) {
                for (Object u : v instanceof JsonArray a ? a.getList() : (List<?>) v)
                    urls.add(String.valueOf(u).trim());
            } else if (v instanceof String str) {
                for (String u : str.split(",")) if (!u.isBlank()) urls.add(u.trim());
            } else {
                throw new ConfigException(chainKey, "must be a list of URLs");
            }
            if (urls.isEmpty()) throw new ConfigException(chainKey, "names no URL");
            for (String u : urls) checkUrl(chainKey, u);
            out.put(chain, List.copyOf(urls));
        });
        return java.util.Collections.unmodifiableMap(out);
    }

    public <E extends Enum<E>> E enumValue(String key, Class<E> type, E def) {
        key = resolve(key);
        String s = string(key, null);
        if (s == null) return def;
        for (E e : type.getEnumConstants()) if (e.name().equalsIgnoreCase(s.trim())) return e;
        List<String> names = new ArrayList<>();
        for (E e : type.getEnumConstants()) names.add(e.name().toLowerCase(java.util.Locale.ROOT));
        throw new ConfigException(key, "must be one of " + String.join(", ", names) + " (got \"" + s + "\")");
    }

    public List<String> httpUrls(String key, List<String> def) {
        key = resolve(key);
        List<String> urls = stringList(key, def);
        for (String u : urls) checkUrl(key, u);
        return urls;
    }

    private static void checkUrl(String key, String s) {
        Objects.requireNonNull(s);
        try {
            java.net.URI u = new java.net.URI(s);
            if (!("http".equals(u.getScheme()) || "https".equals(u.getScheme())) || u.getHost() == null) {
                throw new ConfigException(key, "must be an http(s) URL (got \"" + s + "\")");
            }
        } catch (java.net.URISyntaxException e) {
            throw new ConfigException(key, "must be an http(s) URL (got \"" + s + "\")");
        }
    }
}
