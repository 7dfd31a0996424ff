package dev.weft.node;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.devnet.DevnetEndpoints;
import dev.weft.testsupport.Await;
import dev.weft.testsupport.TestConfig;
import dev.weft.testsupport.TestDatabase;
import dev.weft.testsupport.WeftExtension;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * kill -9 during a three-chain catch-up: a node indexing the devnet's three chains (a child JVM running the real
 * launcher) is killed with SIGKILL while every chain is still catching up, then started again on the same database;
 * once each chain is caught up to the devnet's fixed height, each chain's schema holds row for row what a clean run
 * wrote (blocks, txs, EVM txs, their account and message-type edges, counters, NFTs, the chain's events).
 */
class MultiChainKillTest {
    @RegisterExtension
    static final WeftExtension weft = new WeftExtension();

    static final long HEIGHT = 120;

    @Test
    @DisplayName(
            "SIGKILL mid catch-up of three chains, restart: every chain's schema equals a clean run's at the same height")
    void killDuringThreeChainCatchUp() throws Exception {
        // a fixed latency per node request stretches the catch-up over seconds, so the kill lands in it
        WeftNode devnet =
                weft.start(DevnetChains.devnet(weft.config(), HEIGHT, 6).set("devnet.faults.latency", "10ms"));
        DevnetEndpoints endpoints = DevnetEndpoints.of(devnet.context().info());

        TestConfig cleanConfig = DevnetChains.indexer(weft.config(), endpoints);
        String cleanUrl = DevnetChains.url(cleanConfig);
        WeftNode clean = weft.start(cleanConfig);
        for (String chain : DevnetChains.ALL)
            Await.until(chain + " clean run at " + HEIGHT, 120, () -> DevnetChains.cursor(cleanUrl, chain) >= HEIGHT);
        weft.stop(clean);
        Map<String, Map<String, List<String>>> expected = new LinkedHashMap<>();
        for (String chain : DevnetChains.ALL) {
            Map<String, List<String>> d = DevnetChains.dump(cleanUrl, chain);
            assertEquals(List.of(HEIGHT + "|" + HEIGHT), heights(d), chain + " clean: blocks total = height");
            assertTrue(
                    d.get("tx").size() > HEIGHT,
                    chain + " has txs: " + d.get("tx").size());
            expected.put(chain, d);
        }
        assertTrue(expected.get(DevnetChains.EVM).get("evm_tx").size() > 0, "the EVM chain has EVM txs");
        assertTrue(expected.get(DevnetChains.MOVE).get("nft").size() > 0, "the Move chain has NFTs");

        TestConfig killed = DevnetChains.indexer(weft.config(), endpoints).set("log.level", "info");
        String url = DevnetChains.url(killed);
        Path dir = Files.createTempDirectory("weft-mckill");
        Map<String, Long> atKill = new LinkedHashMap<>();
        try {
            Process p = new ProcessBuilder(
                            Path.of(System.getProperty("java.home"), "bin", "java")
                                    .toString(),
                            "-cp",
                            System.getProperty("java.class.path"),
                            "dev.weft.Main",
                            "--config",
                            killed.writeTo(dir).toString())
                    .redirectErrorStream(true)
                    .redirectOutput(dir.resolve("node.log").toFile())
                    .start();
            try {
                // every chain has committed something, none is done: the kill lands in the middle of all three
                Await.until(
                        "each chain's first commit",
                        120,
                        () -> DevnetChains.ALL.stream().allMatch(c -> DevnetChains.cursor(url, c) > 0));
            } finally {
                p.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
            }
            for (String chain : DevnetChains.ALL) atKill.put(chain, DevnetChains.cursor(url, chain));
            assertTrue(
                    atKill.values().stream().anyMatch(h -> h < HEIGHT),
                    "killed before every chain was caught up: " + atKill);
            assertTrue(atKill.values().stream().allMatch(h -> h > 0), "every chain had started: " + atKill);

            WeftNode second = weft.start(TestConfig.of(killed.json()).set("log.level", "warn"));
            try {
                for (String chain : DevnetChains.ALL)
                    Await.until(
                            chain + " caught up after the restart",
                            120,
                            () -> DevnetChains.cursor(url, chain) >= HEIGHT);
                for (String chain : DevnetChains.ALL) {
                    Map<String, List<String>> got = DevnetChains.dump(url, chain);
                    for (String table : expected.get(chain).keySet())
                        assertEquals(
                                expected.get(chain).get(table),
                                got.get(table),
                                chain + " table " + table + " (killed at " + atKill + ")");
                }
            } finally {
                weft.stop(second);
            }
        } finally {
            TestDatabase.deleteTree(dir);
        }
    }

    /** The dump's ingest_totals blocks and the cursor, as "blocks|cursor". */
    private static List<String> heights(Map<String, List<String>> dump) {
        return List.of(dump.get("ingest_totals").get(0).split("\\|")[0] + "|"
                + dump.get("cursor").get(0));
    }
}
