package dev.weft.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.devnet.config.DevnetConfig;
import dev.weft.devnet.config.LayerZeroDeliveryConfig;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The configuration reference (the key tables of docs/operating.md and docs/devnet.md) documents exactly the keys the
 * code reads: the keys come from {@link ConfigSource#keysRead()} after building the whole configuration, not from a
 * hand-kept list, so a new key without its row (or a row for a key nobody reads) fails here.
 */
class ConfigReferenceTest {

    static final List<Path> REFERENCE_PAGES = List.of(Path.of("docs/operating.md"), Path.of("docs/devnet.md"));

    /** What a map's entry key (a chain id) is written as in the reference. */
    static final String MAP_ENTRY = "<chain_id>";

    private static final Pattern KEY =
            Pattern.compile("`([a-z][a-z0-9_]*(?:\\.(?:[a-z0-9_]+|" + Pattern.quote(MAP_ENTRY) + "))*)`");

    @Test
    @DisplayName("every configuration key the code reads is documented, and every documented key is read")
    void referenceMatchesTheCode() throws IOException {
        Set<String> read = normalise(keysTheCodeReads());
        Set<String> documented = documentedKeys();

        Set<String> undocumented = new TreeSet<>(read);
        undocumented.removeAll(documented);
        Set<String> neverRead = new TreeSet<>(documented);
        neverRead.removeAll(read);
        assertTrue(
                undocumented.isEmpty() && neverRead.isEmpty(),
                "read but not documented in " + REFERENCE_PAGES + ": " + undocumented
                        + "\ndocumented but never read by the code: " + neverRead);
    }

    @Test
    @DisplayName("the reference's key tables are found (a parser that finds nothing would pass vacuously)")
    void theTablesAreParsed() throws IOException {
        Set<String> documented = documentedKeys();
        assertTrue(documented.contains("http.port"), "http.port in docs/operating.md");
        assertTrue(documented.contains("devnet.seed"), "devnet.seed in docs/devnet.md");
        assertTrue(documented.size() > 100, "only " + documented.size() + " keys found");
    }

    @Test
    @DisplayName("map entries are normalised to <chain_id>, a key of its own map included")
    void mapEntriesAreNormalised() {
        Set<String> n = normalise(
                Set.of("route.rest", "route.rest.chain-a", "devnet.chains", "devnet.chains.x-1.rpc_port", "http.port"));
        assertEquals(
                Set.of(
                        "route.rest",
                        "route.rest.<chain_id>",
                        "devnet.chains",
                        "devnet.chains.<chain_id>.rpc_port",
                        "http.port"),
                n);
    }

    /**
     * The keys read while building the configuration over the shipped defaults, then over a configuration that takes
     * every conditional branch (maps with entries, optional features switched on).
     */
    static Set<String> keysTheCodeReads() throws IOException {
        Set<String> keys = new TreeSet<>();
        for (ConfigSource c : List.of(ConfigSource.fileOnly(shippedDefaults()), everyBranch())) {
            WeftConfig.from(c);
            devnetKeys(c);
            keys.addAll(c.keysRead());
        }
        return keys;
    }

    /**
     * The devnet's sections ({@code devnet.*}), read by its own config records; kept apart so it is one place to repoint
     * (they live with the devnet, dev.weft.devnet.config).
     */
    static void devnetKeys(ConfigSource c) {
        DevnetConfig.from(c);
        LayerZeroDeliveryConfig.from(c);
    }

    static JsonObject shippedDefaults() throws IOException {
        return new JsonObject(Files.readString(Path.of("conf/weft.json")));
    }

    /** Every optional part set, and one entry in each map keyed by chain id. */
    static ConfigSource everyBranch() throws IOException {
        JsonObject file = shippedDefaults();
        file.put("admin", new JsonObject().put("token", "0123456789abcdef0123").put("port", 0));
        file.getJsonObject("database").put("url", "postgresql://weft:weft@127.0.0.1:5432/weft");
        file.getJsonObject("cluster").put("enabled", true).put("port", 5701).put("name", "weft-test");
        file.getJsonObject("http").put("trusted_proxies", new JsonArray().add("10.0.0.0/8"));
        JsonObject route = file.getJsonObject("route");
        route.put("finalization_periods", new JsonObject().put("rollup-a", "1d"));
        route.put("rest", new JsonObject().put("chain-a", new JsonArray().add("http://127.0.0.1:1317")));
        route.put(
                "gas",
                new JsonObject()
                        .put(
                                "chains",
                                new JsonObject()
                                        .put(
                                                "chain-a",
                                                new JsonObject()
                                                        .put("gas_price", "0.1")
                                                        .put(
                                                                "json_rpc",
                                                                new JsonArray().add("http://127.0.0.1:8545")))));
        file.getJsonObject("track")
                .put("nodes", new JsonObject().put("chain-a", new JsonArray().add("http://127.0.0.1:26657")));
        JsonObject devnet = file.getJsonObject("devnet");
        devnet.put("genesis_time", "2025-01-01T00:00:00Z");
        devnet.getJsonObject("layer_zero").put("source_rpc", "http://127.0.0.1:8546");
        // A chain's port also comes from its own key (WEFT_DEVNET_CHAINS_…_RPC_PORT / -Dweft.devnet.chains.….rpc_port).
        Map<String, String> sys = Map.of("weft.devnet.chains.weft-l1-1.rpc_port", "0");
        return new ConfigSource(file, Map.of(), sys);
    }

    /**
     * A key read below another key that is read too is an entry of that key's map (a chain id): its entry is written
     * {@code <chain_id>}, whatever id the test configuration used.
     */
    static Set<String> normalise(Set<String> keys) {
        Set<String> out = new TreeSet<>();
        for (String k : keys) {
            String n = k;
            for (String map : keys) {
                if (k.startsWith(map + ".")) {
                    String rest = k.substring(map.length() + 1);
                    int dot = rest.indexOf('.');
                    n = map + "." + MAP_ENTRY + (dot < 0 ? "" : rest.substring(dot));
                    break;
                }
            }
            out.add(n);
        }
        return out;
    }

    /** The keys of the reference pages' key tables: the backticked keys in the first cell of a table headed "key". */
    static Set<String> documentedKeys() throws IOException {
        Set<String> keys = new TreeSet<>();
        for (Path page : REFERENCE_PAGES) keys.addAll(keysInTables(Files.readAllLines(page)));
        return keys;
    }

    static List<String> keysInTables(List<String> lines) {
        List<String> keys = new ArrayList<>();
        boolean inKeyTable = false;
        String previous = "";
        for (String line : lines) {
            String t = line.trim();
            if (!t.startsWith("|")) {
                inKeyTable = false;
            } else if (t.matches("\\|[\\s:|-]+\\|?")) {
                // the separator row: the row above it is the header
                inKeyTable = firstCell(previous).equalsIgnoreCase("key");
            } else if (inKeyTable) {
                Matcher m = KEY.matcher(firstCell(t));
                while (m.find()) keys.add(m.group(1));
            }
            previous = t;
        }
        return keys;
    }

    private static String firstCell(String row) {
        String t = row.trim();
        if (!t.startsWith("|")) return "";
        int end = t.indexOf('|', 1);
        return (end < 0 ? t.substring(1) : t.substring(1, end)).trim();
    }
}
