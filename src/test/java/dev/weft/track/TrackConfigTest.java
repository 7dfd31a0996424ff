package dev.weft.track;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.config.ConfigException;
import dev.weft.config.ConfigSource;
import dev.weft.config.TrackConfig;
import dev.weft.config.WeftConfig;
import dev.weft.route.registry.RegistryLoader;
import io.vertx.core.json.JsonObject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** {@code track.*}, and what the tracker takes from the registries: supported chains, hashes, links, node URLs. */
class TrackConfigTest {
    static JsonObject file() throws Exception {
        return new JsonObject(Files.readString(Path.of("conf/weft.json")));
    }

    @Test
    @DisplayName("defaults from conf/weft.json; node URLs per chain; bad values name their key")
    void config() throws Exception {
        TrackConfig t = WeftConfig.from(ConfigSource.fileOnly(file())).track();
        assertEquals(
                new TrackConfig(
                        Duration.ofSeconds(1),
                        Duration.ofMinutes(10),
                        200,
                        100,
                        50,
                        8,
                        512,
                        512,
                        64L << 20,
                        200,
                        600,
                        Duration.ofSeconds(10),
                        Map.of(),
                        Duration.ofMinutes(10),
                        10_000,
                        120,
                        100,
                        10_000),
                t);
        TrackConfig nodes = WeftConfig.from(new ConfigSource(
                        file(),
                        Map.of(
                                "WEFT_TRACK_NODES",
                                "{\"interwoven-1\": [\"https://rpc.example\", \"https://rpc2.example\"]}"),
                        Map.of()))
                .track();
        assertEquals(Map.of("interwoven-1", List.of("https://rpc.example", "https://rpc2.example")), nodes.nodes());
        ConfigException bad = assertThrows(
                ConfigException.class,
                () -> WeftConfig.from(new ConfigSource(
                        file(), Map.of("WEFT_TRACK_NODES", "{\"interwoven-1\": [\"rpc.example\"]}"), Map.of())));
        assertEquals(
                "configuration key 'track.nodes.interwoven-1': must be an http(s) URL (got \"rpc.example\")",
                bad.getMessage());
        // one chain's own system property: added to (or replacing that chain of) the file's or environment's object
        TrackConfig perChain = WeftConfig.from(new ConfigSource(
                        file(),
                        Map.of("WEFT_TRACK_NODES", "{\"interwoven-1\": [\"https://rpc.example\"]}"),
                        Map.of(
                                "weft.track.nodes.weft-l1-1",
                                "http://l1.example:26657, http://l1b.example:26657",
                                "weft.track.nodes.interwoven-1",
                                "https://rpc3.example")))
                .track();
        assertEquals(
                Map.of(
                        "interwoven-1",
                        List.of("https://rpc3.example"),
                        "weft-l1-1",
                        List.of("http://l1.example:26657", "http://l1b.example:26657")),
                perChain.nodes());
        ConfigException badOwn = assertThrows(
                ConfigException.class,
                () -> WeftConfig.from(
                        new ConfigSource(file(), Map.of(), Map.of("weft.track.nodes.weft-l1-1", "ftp://x"))));
        assertEquals(
                "configuration key 'track.nodes.weft-l1-1': must be an http(s) URL (got \"ftp://x\")",
                badOwn.getMessage());
        assertThrows(
                ConfigException.class,
                () -> WeftConfig.from(new ConfigSource(file(), Map.of("WEFT_TRACK_POLL_INTERVAL", "1ms"), Map.of())));
    }

    @Test
    @DisplayName(
            "every chain of the registries is tracked (EVM ones by receipts); hashes in any case with or without 0x, 0x and lower-case on EVM chains; explorer links; URLs")
    void chains() throws Exception {
        // the devnet supplies its chains' RPC URLs as configuration (track.nodes.<chain id>), under the operator's own
        TrackConfig config = WeftConfig.from(new ConfigSource(
                                file(),
                                Map.of("WEFT_TRACK_NODES", "{\"weft-move-1\": [\"http://move.example\"]}"),
                                Map.of())
                        .withSupplied(Map.of(
                                "track.nodes.weft-l1-1", "http://127.0.0.1:4567",
                                "track.nodes.weft-move-1", "http://127.0.0.1:4577")))
                .track();
        Map<String, List<String>> rest = Map.of("weft-l1-1", List.of("http://127.0.0.1:4568"));
        TrackChains c = new TrackChains(
                RegistryLoader.load(List.of("conf/registry/mainnet.json", "conf/registry/devnet.json"), Map.of()),
                config,
                rest,
                null);
        assertTrue(c.supported("weft-l1-1"));
        assertTrue(c.supported("interwoven-1"));
        assertTrue(c.supported("31337"));
        assertTrue(c.isEvm("31337"));
        assertEquals("0x" + "ab".repeat(32), c.normalizeHash("31337", "AB".repeat(32)));
        assertEquals("AB".repeat(32), c.normalizeHash("weft-l1-1", "0x" + "ab".repeat(32)));
        assertFalse(c.supported("cosmoshub-4"));
        String h = "ab".repeat(32);
        assertEquals(h.toUpperCase(), TrackChains.normalizeHash("0x" + h));
        assertEquals(h.toUpperCase(), TrackChains.normalizeHash(" 0X" + h.toUpperCase() + " "));
        assertNull(TrackChains.normalizeHash("0x1234"));
        assertNull(TrackChains.normalizeHash("zz".repeat(32)));
        assertEquals("http://scan.weft.localhost/weft-l1-1/txs/ABC", c.explorerLink("weft-l1-1", "ABC"));
        assertEquals("weft-devnet-1", c.counterparty("weft-l1-1", "channel-0"));
        assertEquals("weft-move-1", c.bridgeOf("weft-l1-1", 2).l2ChainId());
        assertEquals(List.of("http://127.0.0.1:4567"), c.rpcUrls("weft-l1-1"));
        assertEquals(List.of("http://move.example"), c.rpcUrls("weft-move-1"), "the operator's track.nodes win");
        assertEquals(List.of("http://127.0.0.1:4568"), c.restUrls("weft-l1-1"));
        assertEquals(List.of(), c.rpcUrls("weft-devnet-1"));
        dev.weft.config.ChainConfig indexed = WeftConfig.from(
                        new ConfigSource(file(), Map.of("WEFT_CHAIN_RPC", "http://evm.example"), Map.of()))
                .chain();
        TrackChains withChain = new TrackChains(c.registry(), config, rest, indexed);
        assertEquals(
                List.of("http://evm.example"), withChain.rpcUrls("weft-devnet-1"), "the indexed chain's chain.rpc");
        assertFalse(c.rpcUrls("interwoven-1").isEmpty(), "mainnet chains default to the registry's apis.rpc");
    }
}
