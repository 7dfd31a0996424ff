package dev.weft.config;

import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * The whole configuration of a node, read once at start-up into typed records. Every section validates its keys
 * eagerly, so a bad value stops start-up with one line that names the key.
 */
public record WeftConfig(
        ConfigSource source,
        NodeConfig node,
        HttpConfig http,
        DatabaseConfig database,
        ChainConfig chain,
        ClusterConfig cluster,
        LogConfig log,
        BridgeConfig bridge,
        RouteConfig route,
        IngestConfig ingest,
        EvmConfig evm,
        TrackConfig track,
        RichListConfig richlist,
        AdminConfig admin,
        RateLimitConfig rateLimit,
        EventsConfig events,
        ChainsConfig chains,
        WebhooksConfig webhooks,
        ViewsConfig views,
        ExportConfig export,
        StorageConfig storage) {

    public static final String DEFAULT_FILE = "conf/weft.json";
    /** The default configuration bundled in the jar, used when conf/weft.json is not next to it. */
    public static final String BUNDLED_RESOURCE = "conf/weft.json";

    /**
     * The configuration of a node whose chain ({@link #chain()}) is the default chain, or, when {@code c} is scoped to
     * one chain ({@link ConfigSource#forChainEntry}), that chain: its ingest, EVM and rich-list sections then carry the
     * entry's overrides.
     */
    public static WeftConfig from(ConfigSource c) {
        ChainsConfig chains = ChainsConfig.from(c.forNode());
        if (!c.chainScoped()) {
            String def = chains.defaultChainId();
            c = c.forChainEntry(chains.isChainBlock(def) ? null : def);
        }
        ChainConfig chain =
                chains.get(c.chainEntry() == null ? chains.legacy().iterator().next() : c.chainEntry());
        return new WeftConfig(
                c,
                NodeConfig.from(c),
                HttpConfig.from(c),
                DatabaseConfig.from(c),
                chain,
                ClusterConfig.from(c),
                LogConfig.from(c),
                BridgeConfig.from(c),
                RouteConfig.from(c),
                IngestConfig.from(c),
                EvmConfig.from(c),
                TrackConfig.from(c),
                RichListConfig.from(c),
                AdminConfig.from(c),
                RateLimitConfig.from(c),
                EventsConfig.from(c),
                chains,
                WebhooksConfig.from(c),
                ViewsConfig.from(c),
                ExportConfig.from(c),
                StorageConfig.from(c));
    }

    /** This configuration as the verticles of one indexed chain read it (this one for its own chain). */
    public WeftConfig forChain(String chainId) {
        if (chainId.equals(chain.chainId())) return this;
        if (!chains.has(chainId)) throw new IllegalArgumentException("no configured chain " + chainId);
        return from(source.forChainEntry(chains.isChainBlock(chainId) ? null : chainId));
    }

    /**
     * Loads the file (or the bundled default when {@code file} is null and conf/weft.json does not exist), overlaid by
     * environment variables, system properties and then {@code overrides} (command-line options, by dotted key).
     */
    public static WeftConfig load(Path file, Map<String, String> overrides) {
        Map<String, String> sys = new HashMap<>();
        System.getProperties().forEach((k, v) -> sys.put(String.valueOf(k), String.valueOf(v)));
        return load(file, System.getenv(), sys, overrides);
    }

    /** {@link #load(Path, Map)} over the given environment and system properties instead of the process's. */
    static WeftConfig load(
            Path file, Map<String, String> env, Map<String, String> systemProperties, Map<String, String> overrides) {
        Map<String, String> sys = new HashMap<>(systemProperties);
        overrides.forEach((k, v) -> sys.put("weft." + k, v));
        return from(new ConfigSource(readFile(file), env, sys));
    }

    static JsonObject readFile(Path file) {
        if (file == null) {
            Path def = Path.of(DEFAULT_FILE);
            if (Files.exists(def)) return parse(def);
            try (InputStream in = WeftConfig.class.getClassLoader().getResourceAsStream(BUNDLED_RESOURCE)) {
                if (in == null) return new JsonObject();
                return new JsonObject(new String(in.readAllBytes(), StandardCharsets.UTF_8));
            } catch (IOException e) {
                throw new ConfigException("cannot read the bundled default configuration: " + e.getMessage());
            }
        }
        return parse(file);
    }

    private static JsonObject parse(Path file) {
        try {
            return new JsonObject(Files.readString(file));
        } catch (NoSuchFileException e) {
            throw new ConfigException("configuration file not found: " + file);
        } catch (IOException e) {
            throw new ConfigException("cannot read configuration file " + file + ": " + e.getMessage());
        } catch (DecodeException e) {
            throw new ConfigException(
                    "configuration file " + file + " is not valid JSON: " + firstLine(e.getMessage()));
        }
    }

    private static String firstLine(String s) {
        if (s == null) return "";
        int i = s.indexOf('\n');
        return i < 0 ? s : s.substring(0, i);
    }

    /**
     * The configuration read again with {@code values} filling the keys it leaves empty (what a started plugin supplies,
     * such as the devnet's node URLs), validated as at start-up.
     */
    public WeftConfig withSupplied(java.util.Map<String, String> values) {
        return values.isEmpty() ? this : from(source.withSupplied(values));
    }
}
