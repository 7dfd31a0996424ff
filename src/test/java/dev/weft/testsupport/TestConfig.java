package dev.weft.testsupport;

import dev.weft.config.ConfigSource;
import dev.weft.config.WeftConfig;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Test configurations: the project's own {@code conf/weft.json} with a fresh database, a free HTTP port and the
 * given roles, adjustable by dotted key before it is turned into a {@link WeftConfig}.
 */
public final class TestConfig {
    private final JsonObject json;

    private TestConfig(JsonObject json) {
        this.json = json;
    }

    public static TestConfig defaults() {
        try {
            JsonObject json = new JsonObject(Files.readString(Path.of("conf/weft.json")));
            // one indexed chain, as the tests were written for; MultiChainTest puts the project's chains back
            json.remove("chains");
            TestConfig c = new TestConfig(json);
            c.set("http.port", 0);
            c.set("database.url", TestDatabase.freshUrl());
            c.set("log.level", "warn");
            c.set("http.drain", "50ms");
            c.set("bridge.tcp_port", 0);
            c.set("devnet.rpc_port", 0); // tests run concurrently: never the devnet's fixed ports
            c.set("devnet.rest_port", 0);
            c.set("devnet.json_rpc_port", 0);
            c.set("devnet.chains.weft-l1-1.rpc_port", 0);
            c.set("devnet.chains.weft-l1-1.rest_port", 0);
            c.set("devnet.chains.weft-move-1.rpc_port", 0);
            c.set("devnet.chains.weft-move-1.rest_port", 0);
            c.set("devnet.state_file", "");
            c.set("rate_limit.enabled", false); // tests drive load from one address; HttpLimitsTest turns it on
            return c;
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A configuration from JSON as it is (no fresh database): copies of another test configuration. */
    public static TestConfig of(JsonObject json) {
        return new TestConfig(json.copy());
    }

    public TestConfig roles(String... roles) {
        return set("node.roles", new JsonArray(java.util.List.of((Object[]) roles)));
    }

    /** Sets a dotted key, creating the intermediate objects. */
    public TestConfig set(String key, Object value) {
        String[] parts = key.split("\\.");
        JsonObject cur = json;
        for (int i = 0; i < parts.length - 1; i++) {
            JsonObject next = cur.getJsonObject(parts[i]);
            if (next == null) {
                next = new JsonObject();
                cur.put(parts[i], next);
            }
            cur = next;
        }
        cur.put(parts[parts.length - 1], value);
        return this;
    }

    public Object get(String key) {
        return ConfigSource.fileOnly(json).raw(key);
    }

    public JsonObject json() {
        return json.copy();
    }

    public WeftConfig build() {
        return WeftConfig.from(ConfigSource.fileOnly(json.copy()));
    }

    /** Writes the configuration to a temporary file (for tests that start the launcher in a child JVM). */
    public Path writeTo(Path dir) throws IOException {
        Path f = dir.resolve("weft-test.json");
        Files.writeString(f, json.encodePrettily());
        return f;
    }
}
