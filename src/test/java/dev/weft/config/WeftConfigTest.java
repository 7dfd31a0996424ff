package dev.weft.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.json.JsonObject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class WeftConfigTest {

    private static JsonObject defaults() throws Exception {
        return new JsonObject(Files.readString(Path.of("conf/weft.json")));
    }

    @Test
    @DisplayName(
            "conf/weft.json gives all roles, port 8080, the embedded database in ./data/pg and an EVM devnet chain")
    void defaultsFromTheShippedFile() throws Exception {
        WeftConfig c = WeftConfig.from(ConfigSource.fileOnly(defaults()));
        assertEquals(EnumSet.complementOf(EnumSet.of(Role.DB)), c.node().roles());
        assertEquals(8080, c.http().port());
        assertTrue(c.database().embedded());
        assertEquals("./data/pg", c.database().dataDir());
        assertEquals("weft-devnet-1", c.chain().chainId());
        assertTrue(c.chain().isEvm());
        assertEquals("init", c.chain().bech32Prefix());
        assertFalse(c.cluster().enabled());
        assertEquals("INFO", c.log().level());
    }

    @Test
    @DisplayName(
            "the EVM tracer's window starts at its cap, evm.window_max (evm.window when set below it), and asks the node at most a full window's requests")
    void evmWindowCap() throws Exception {
        EvmConfig shipped = WeftConfig.from(ConfigSource.fileOnly(defaults())).evm();
        assertEquals(64, shipped.window());
        assertEquals(384, shipped.windowMax());
        assertEquals(384, shipped.windowCap());
        assertEquals(
                4,
                evm(Map.of("weft.evm.window", "4", "weft.evm.window_max", "4")).windowCap(),
                "a fixed window");
        assertEquals(
                100,
                evm(Map.of("weft.evm.window", "4", "weft.evm.window_max", "100"))
                        .windowCap());
        assertEquals(64, evm(Map.of("weft.evm.window_max", "16")).windowCap(), "a cap below the floor: the floor");
        assertEquals(768, shipped.maxRequests(), "a trace and the receipts per height of a full window");
        assertEquals(
                8,
                evm(Map.of("weft.evm.window", "4", "weft.evm.window_max", "4")).maxRequests());
    }

    private static EvmConfig evm(Map<String, String> properties) throws Exception {
        return WeftConfig.from(new ConfigSource(defaults(), Map.of(), properties))
                .evm();
    }

    @Test
    @DisplayName("system property beats environment variable beats file")
    void precedence() throws Exception {
        JsonObject file = defaults();
        ConfigSource envOnly = new ConfigSource(
                file, Map.of("WEFT_HTTP_PORT", "9001", "WEFT_DATABASE_URL", "postgresql://u:p@db:5432/w"), Map.of());
        WeftConfig c1 = WeftConfig.from(envOnly);
        assertEquals(9001, c1.http().port());
        assertEquals("postgresql://u:p@db:5432/w", c1.database().url());
        assertFalse(c1.database().embedded());
        ConfigSource both = new ConfigSource(file, Map.of("WEFT_HTTP_PORT", "9001"), Map.of("weft.http.port", "9002"));
        assertEquals(9002, WeftConfig.from(both).http().port());
    }

    @Test
    @DisplayName("lists come as JSON arrays in the file and comma-separated from the environment")
    void lists() throws Exception {
        ConfigSource c = new ConfigSource(
                defaults(),
                Map.of("WEFT_NODE_ROLES", "api, ingest", "WEFT_CHAIN_RPC", "http://a:1,http://b:2"),
                Map.of());
        WeftConfig w = WeftConfig.from(c);
        assertEquals(EnumSet.of(Role.API, Role.INGEST), w.node().roles());
        assertEquals(List.of("http://a:1", "http://b:2"), w.chain().rpcUrls());
    }

    @Test
    @DisplayName("route.rest: the whole object from the environment, one chain from its own system property")
    void routeRestPerChain() throws Exception {
        ConfigSource c = new ConfigSource(
                defaults(),
                Map.of("WEFT_ROUTE_REST", "{\"interwoven-1\": \"https://rest.example\"}"),
                Map.of("weft.route.rest.weft-l1-1", "http://127.0.0.1:1317"));
        assertEquals(
                Map.of("interwoven-1", List.of("https://rest.example"), "weft-l1-1", List.of("http://127.0.0.1:1317")),
                WeftConfig.from(c).route().restUrls());
    }

    @Test
    @DisplayName("every invalid value names its key in a one-line message")
    void invalidValuesNameTheKey() throws Exception {
        assertKeyError(Map.of("WEFT_HTTP_PORT", "eighty"), "http.port", "whole number");
        assertKeyError(Map.of("WEFT_HTTP_PORT", "70000"), "http.port", "between 0 and 65535");
        assertKeyError(Map.of("WEFT_NODE_ROLES", "api,in dexer"), "node.roles", "unknown role \"in dexer\"");
        assertKeyError(Map.of("WEFT_DATABASE_URL", "mysql:nope"), "database.url", "PostgreSQL URL");
        assertKeyError(Map.of("WEFT_CHAIN_VM", "solana"), "chain.vm", "one of evm, move, wasm");
        assertKeyError(Map.of("WEFT_CHAIN_RPC", "localhost:26657"), "chain.rpc", "http(s) URL");
        assertKeyError(Map.of("WEFT_LOG_LEVEL", "loud"), "log.level", "one of trace");
        assertKeyError(Map.of("WEFT_DATABASE_EMBEDDED_FSYNC", "maybe"), "database.embedded_fsync", "true or false");
        assertKeyError(Map.of("WEFT_CHAIN_CHAIN_ID", " "), "chain.chain_id", "is missing");
        assertKeyError(
                Map.of("WEFT_HTTP_CORS_ORIGINS", "https://app.example.com, app.example.com"),
                "http.cors_origins",
                "(got \"app.example.com\")");
        assertKeyError(
                Map.of("WEFT_HTTP_CORS_ORIGINS", "https://app.*.com"), "http.cors_origins", "subdomain wildcard");
    }

    @Test
    @DisplayName(
            "database.read_urls: a list of PostgreSQL URLs (a bad one named without its password); max_replica_lag and replica_check_interval bounded")
    void readReplicas() throws Exception {
        DatabaseConfig none = WeftConfig.from(new ConfigSource(defaults(), Map.of(), Map.of()))
                .database();
        assertEquals(List.of(), none.readUrls());
        assertEquals(java.time.Duration.ofSeconds(5), none.maxReplicaLag());
        assertEquals(java.time.Duration.ofMillis(500), none.replicaCheckInterval());
        DatabaseConfig two = WeftConfig.from(new ConfigSource(
                        defaults(),
                        Map.of(
                                "WEFT_DATABASE_READ_URLS",
                                "postgresql://r@10.0.0.2:5432/weft, postgresql://r@10.0.0.3:5432/weft",
                                "WEFT_DATABASE_MAX_REPLICA_LAG",
                                "2s"),
                        Map.of()))
                .database();
        assertEquals(List.of("postgresql://r@10.0.0.2:5432/weft", "postgresql://r@10.0.0.3:5432/weft"), two.readUrls());
        assertEquals(java.time.Duration.ofSeconds(2), two.maxReplicaLag());
        assertKeyError(
                Map.of("WEFT_DATABASE_READ_URLS", "postgresql://r@10.0.0.2/weft,mysql://u:secret@h/db"),
                "database.read_urls",
                "not a PostgreSQL URL");
        ConfigException e = assertThrows(
                ConfigException.class,
                () -> WeftConfig.from(new ConfigSource(
                        defaults(), Map.of("WEFT_DATABASE_READ_URLS", "mysql://u:secret@h/db"), Map.of())));
        assertFalse(e.getMessage().contains("secret"), e.getMessage());
        assertKeyError(
                Map.of("WEFT_DATABASE_READ_URLS", "postgresql://r@h/db,postgresql://r@h/db"),
                "database.read_urls",
                "twice");
        assertKeyError(Map.of("WEFT_DATABASE_MAX_REPLICA_LAG", "50ms"), "database.max_replica_lag", "between 100ms");
        assertKeyError(
                Map.of("WEFT_DATABASE_REPLICA_CHECK_INTERVAL", "10s"),
                "database.replica_check_interval",
                "shorter than database.max_replica_lag");
    }

    private static void assertKeyError(Map<String, String> env, String key, String fragment) throws Exception {
        ConfigException e =
                assertThrows(ConfigException.class, () -> WeftConfig.from(new ConfigSource(defaults(), env, Map.of())));
        assertTrue(e.getMessage().startsWith("configuration key '" + key + "'"), e.getMessage());
        assertTrue(e.getMessage().contains(fragment), e.getMessage());
        assertFalse(e.getMessage().contains("\n"));
    }

    @Test
    @DisplayName("durations accept plain milliseconds and units")
    void durations() {
        ConfigSource c = ConfigSource.fileOnly(new JsonObject()
                .put(
                        "a",
                        new JsonObject()
                                .put("b", "2s")
                                .put("c", 250)
                                .put("d", "7d")
                                .put("e", "soon")));
        assertEquals(Duration.ofSeconds(2), c.duration("a.b", null));
        assertEquals(Duration.ofMillis(250), c.duration("a.c", null));
        assertEquals(Duration.ofDays(7), c.duration("a.d", null));
        assertEquals(Duration.ofMinutes(1), c.duration("a.x", Duration.ofMinutes(1)));
        assertThrows(ConfigException.class, () -> c.duration("a.e", null));
    }

    @Test
    @DisplayName("a missing or malformed configuration file is a one-line error naming the file")
    void badFiles(@TempDir Path dir) throws Exception {
        ConfigException missing =
                assertThrows(ConfigException.class, () -> WeftConfig.load(dir.resolve("nope.json"), Map.of()));
        assertTrue(missing.getMessage().contains("configuration file not found"), missing.getMessage());
        Path bad = dir.resolve("bad.json");
        Files.writeString(bad, "{ \"http\": { \"port\": 80 ");
        ConfigException malformed = assertThrows(ConfigException.class, () -> WeftConfig.load(bad, Map.of()));
        assertTrue(malformed.getMessage().contains("is not valid JSON"), malformed.getMessage());
        assertFalse(malformed.getMessage().contains("\n"));
    }

    @Test
    @DisplayName(
            "environment variables win over the file, system properties over both, command-line overrides over all")
    void overrides(@TempDir Path dir) throws Exception {
        Path f = dir.resolve("w.json");
        Files.writeString(f, defaults().encode());
        // the environment and system properties are given, not the process's: the outcome does not depend on the
        // machine
        Map<String, String> env = Map.of(
                "WEFT_NODE_ROLES",
                "api",
                "WEFT_CLUSTER_HOST",
                "10.9.9.9",
                "WEFT_HTTP_PORT",
                "8123",
                "WEFT_LOG_LEVEL",
                "warn");
        Map<String, String> sys = Map.of("weft.log.level", "debug");
        WeftConfig c = WeftConfig.load(
                f, env, sys, Map.of("node.roles", "devnet", "cluster.enabled", "true", "cluster.host", "10.0.0.5"));
        assertEquals(java.util.Set.of(), c.node().roles());
        assertEquals(java.util.Set.of("devnet"), c.node().plugins());
        assertTrue(c.cluster().enabled());
        assertEquals("10.0.0.5", c.cluster().host());
        assertEquals(8123, c.http().port());
        assertEquals("DEBUG", c.log().level());
        assertNull(c.database().url());
    }
}
