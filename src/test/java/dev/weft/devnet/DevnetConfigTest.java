package dev.weft.devnet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.weft.config.ConfigException;
import dev.weft.config.ConfigSource;
import dev.weft.devnet.config.DevnetConfig;
import io.vertx.core.json.JsonObject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class DevnetConfigTest {
    private static JsonObject defaults() throws Exception {
        return new JsonObject(Files.readString(Path.of("conf/weft.json")));
    }

    @Test
    @DisplayName(
            "conf/weft.json: a live devnet on 26657/1317/8545 with 300 blocks of history, a block a second, no faults")
    void defaultsFromTheShippedFile() throws Exception {
        DevnetConfig d = DevnetConfig.from(ConfigSource.fileOnly(defaults()));
        assertEquals(DevnetConfig.Mode.LIVE, d.mode());
        assertEquals(300, d.historyBlocks());
        assertEquals(Duration.ofSeconds(1), d.blockInterval());
        assertEquals(26657, d.rpcPort());
        assertEquals(1317, d.restPort());
        assertEquals(8545, d.jsonRpcPort());
        assertNull(d.genesisTime());
        assertEquals(false, d.faults().any());
    }

    @Test
    @DisplayName("bad values stop start-up naming the key")
    void invalid() throws Exception {
        JsonObject file = defaults();
        ConfigException mode = assertThrows(
                ConfigException.class,
                () -> DevnetConfig.from(new ConfigSource(file, Map.of("WEFT_DEVNET_MODE", "replay"), Map.of())));
        assertEquals(
                "configuration key 'devnet.mode': must be one of live, history (got \"replay\")", mode.getMessage());
        ConfigException time = assertThrows(
                ConfigException.class,
                () -> DevnetConfig.from(
                        new ConfigSource(file, Map.of(), Map.of("weft.devnet.genesis_time", "yesterday"))));
        assertEquals(
                "configuration key 'devnet.genesis_time'",
                time.getMessage().substring(0, time.getMessage().indexOf(':')));
        assertThrows(
                ConfigException.class,
                () -> DevnetConfig.from(
                        new ConfigSource(file, Map.of("WEFT_DEVNET_FAULTS_ERROR_RATE", "2"), Map.of())));
        assertEquals(
                Instant.parse("2025-01-01T00:00:00Z"),
                DevnetConfig.from(new ConfigSource(
                                file, Map.of("WEFT_DEVNET_GENESIS_TIME", "2025-01-01T00:00:00Z"), Map.of()))
                        .genesisTime());
    }

    @Test
    @DisplayName(
            "live mode with an auto genesis keeps its genesis in the state file: a restart finds a chain that grew meanwhile")
    void stateFile(@org.junit.jupiter.api.io.TempDir Path dir) throws Exception {
        Path state = dir.resolve("devnet-state.json");
        DevnetConfig d = DevnetConfig.from(
                new ConfigSource(defaults(), Map.of(), Map.of("weft.devnet.state_file", state.toString())));
        Instant t0 = Instant.parse("2026-01-01T00:00:00Z");
        DevnetStart first = DevnetStart.resolve(d, "weft-devnet-1", t0);
        assertEquals(300, first.head());
        assertEquals(t0.minusSeconds(299), first.genesis());
        DevnetStart later = DevnetStart.resolve(d, "weft-devnet-1", t0.plusSeconds(1000));
        assertEquals(first.genesis(), later.genesis());
        assertEquals(1300, later.head());
        DevnetStart otherChain = DevnetStart.resolve(d, "weft-other-1", t0.plusSeconds(2000));
        assertEquals(300, otherChain.head());
    }

    @Test
    @DisplayName(
            "the multi-chain devnet: the L1 and the minimove rollup on their ports by default, relayer and executor delays, failure rules")
    void multichain() throws Exception {
        DevnetConfig d = DevnetConfig.from(ConfigSource.fileOnly(defaults()));
        assertEquals(
                java.util.List.of(
                        new DevnetConfig.ExtraChain("weft-l1-1", 26667, 1327),
                        new DevnetConfig.ExtraChain("weft-move-1", 26677, 1337)),
                d.chains());
        assertEquals("conf/registry/devnet.json", d.registry());
        assertEquals(
                new DevnetConfig.RelayerConfig(Duration.ofSeconds(2), java.util.List.of(), java.util.List.of()),
                d.relayer());
        assertEquals(new DevnetConfig.OpinitConfig(Duration.ofSeconds(2), Duration.ofSeconds(10)), d.opinit());
        DevnetConfig alone = DevnetConfig.from(new ConfigSource(
                defaults(),
                Map.of("WEFT_DEVNET_CHAINS", "{}", "WEFT_DEVNET_RELAYER_ERROR_RECEIVERS", "a,b"),
                Map.of()));
        assertEquals(false, alone.multichain());
        assertEquals(java.util.List.of("a", "b"), alone.relayer().errorReceivers());
        ConfigException port = assertThrows(
                ConfigException.class,
                () -> DevnetConfig.from(new ConfigSource(
                        defaults(), Map.of("WEFT_DEVNET_CHAINS", "{\"weft-l1-1\": {\"rpc_port\": 70000}}"), Map.of())));
        assertEquals(
                "configuration key 'devnet.chains.weft-l1-1.rpc_port': must be a port between 0 and 65535 (got 70000)",
                port.getMessage());
        // one chain's port on its own key, as the environment or a system property gives it
        DevnetConfig moved = DevnetConfig.from(new ConfigSource(
                defaults(),
                Map.of("WEFT_DEVNET_CHAINS_WEFT_L1_1_RPC_PORT", "0"),
                Map.of("weft.devnet.chains.weft-move-1.rest_port", "1400")));
        assertEquals(
                java.util.List.of(
                        new DevnetConfig.ExtraChain("weft-l1-1", 0, 1327),
                        new DevnetConfig.ExtraChain("weft-move-1", 26677, 1400)),
                moved.chains());
        ConfigException bad = assertThrows(
                ConfigException.class,
                () -> DevnetConfig.from(
                        new ConfigSource(defaults(), Map.of("WEFT_DEVNET_CHAINS_WEFT_L1_1_REST_PORT", "x"), Map.of())));
        assertEquals(
                "configuration key 'devnet.chains.weft-l1-1.rest_port': must be a port between 0 and 65535 (got x)",
                bad.getMessage());
    }

    @Test
    @DisplayName("each other chain's generated traffic has its own keys; a node may index a Move chain of the devnet")
    void trafficAndIndexedChain() throws Exception {
        DevnetConfig d = DevnetConfig.from(new ConfigSource(
                defaults(),
                Map.of("WEFT_DEVNET_CHAINS_WEFT_L1_1_TXS_PER_BLOCK", "0"),
                Map.of(
                        "weft.devnet.chains.weft-move-1.empty_block_share", "0.5",
                        "weft.devnet.chains.weft-move-1.traffic_blocks", "20")));
        assertEquals(
                java.util.List.of(
                        new DevnetConfig.ExtraChain("weft-l1-1", 26667, 1327, 0, 0.1, 300),
                        new DevnetConfig.ExtraChain("weft-move-1", 26677, 1337, 6, 0.5, 20)),
                d.chains());
        ConfigException tpb = assertThrows(
                ConfigException.class,
                () -> DevnetConfig.from(new ConfigSource(
                        defaults(), Map.of("WEFT_DEVNET_CHAINS_WEFT_MOVE_1_TXS_PER_BLOCK", "1.5"), Map.of())));
        assertEquals(
                "configuration key 'devnet.chains.weft-move-1.txs_per_block': must be a number between 0 and 1000"
                        + " (got 1.5)",
                tpb.getMessage());
        // indexing weft-move-1: the generated chain keeps its own identity (devnet.chain_id)
        DevnetConfig move = DevnetConfig.from(new ConfigSource(
                defaults(), Map.of("WEFT_CHAIN_CHAIN_ID", "weft-move-1", "WEFT_CHAIN_VM", "move"), Map.of()));
        assertEquals("weft-devnet-1", move.chainId());
        assertEquals("init", move.bech32Prefix());
        ConfigException same = assertThrows(
                ConfigException.class,
                () -> DevnetConfig.from(new ConfigSource(defaults(), Map.of("WEFT_CHAIN_VM", "move"), Map.of())));
        assertEquals(
                "configuration key 'chain.vm'",
                same.getMessage().substring(0, same.getMessage().indexOf(':')));
        ConfigException unknown = assertThrows(
                ConfigException.class,
                () -> DevnetConfig.from(new ConfigSource(defaults(), Map.of("WEFT_CHAIN_VM", "svm"), Map.of())));
        assertEquals("configuration key 'chain.vm': must be one of [evm, move, wasm] (got svm)", unknown.getMessage());
    }
}
