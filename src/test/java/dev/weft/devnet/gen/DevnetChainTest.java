package dev.weft.devnet.gen;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.chain.AccountAddress;
import dev.weft.chain.CosmosTx;
import dev.weft.chain.Hashes;
import dev.weft.chain.Hex;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.math.BigInteger;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The generated chain itself: layout, raw txs, events, EVM views and state, checked against each other. */
class DevnetChainTest {
    static ChainSpec spec(long seed, int txsPerBlock) {
        return new ChainSpec(
                "weft-devnet-1",
                "init",
                1397,
                seed,
                Instant.parse("2025-06-01T00:00:00Z"),
                Duration.ofSeconds(1),
                txsPerBlock,
                0.1,
                ChainSpec.DEFAULT_SENDERS,
                512);
    }

    private static final DevnetChain CHAIN = new DevnetChain(spec(42, 20), 400);

    @Test
    @DisplayName(
            "threads asking for one height at once share one generation of its block (an indexer asks for block, results and receipts together)")
    void oneGenerationPerHeight() throws Exception {
        DevnetChain chain = new DevnetChain(spec(7, 40), 400);
        int askers = 6;
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(askers);
        try {
            for (long h = 300; h < 310; h++) {
                long height = h;
                java.util.concurrent.CyclicBarrier together = new java.util.concurrent.CyclicBarrier(askers);
                List<java.util.concurrent.Future<Block>> answers = new ArrayList<>();
                for (int i = 0; i < askers; i++) {
                    answers.add(pool.submit(() -> {
                        together.await();
                        return chain.block(height);
                    }));
                }
                Block first = answers.get(0).get();
                for (java.util.concurrent.Future<Block> a : answers)
                    assertTrue(first == a.get(), "the same block for every asker");
            }
        } finally {
            pool.shutdownNow();
        }
        assertEquals(10, chain.generations(), "one generation per height");
    }

    @Test
    @DisplayName(
            "devnet.cached_blocks: a chain keeps that many generated blocks, so a history that fits is generated once")
    void cachedBlocks() {
        DevnetChain whole = new DevnetChain(spec(7, 4), 300, 300);
        for (int round = 0; round < 2; round++) for (long h = 1; h <= 300; h++) whole.block(h);
        assertEquals(300, whole.generations(), "the whole history kept: each height generated once");
        DevnetChain small = new DevnetChain(spec(7, 4), 300, 100);
        for (int round = 0; round < 2; round++) for (long h = 1; h <= 300; h++) small.block(h);
        assertEquals(
                600,
                small.generations(),
                "the most recent 100 kept: a second pass over 300 heights generates them all again");
        small.block(300);
        assertEquals(600, small.generations(), "a recent height comes from the cache");
    }

    @Test
    @DisplayName(
            "the layout is consistent: heights hold their txs in order, some blocks are empty, a window keeps the rate")
    void layout() {
        Layout layout = new Layout(spec(42, 20));
        assertEquals(0, layout.firstTx(1));
        assertEquals(Layout.GENESIS_TXS, layout.txCount(1));
        int empty = 0;
        long txs = 0;
        for (long h = 2; h < 2 + 64 * 3; h++) {
            int n = layout.txCount(h);
            if (n == 0) empty++;
            txs += n;
            for (long g = layout.firstTx(h); g < layout.firstTx(h) + n; g++) assertEquals(h, layout.heightOf(g));
        }
        assertEquals(3 * 6, empty, "round(0.1 × 64) empty blocks per window");
        assertEquals(3L * 20 * (64 - 6), txs);
        long far = 1_000_000_000L;
        assertEquals(far, layout.heightOf(layout.firstTx(far)));
    }

    @Test
    @DisplayName(
            "every tx kind occurs: sends, ERC-20 and native transfers, router calls, multi-message txs, NFT lifecycles, failures, deployments")
    void kinds() {
        Set<TxPlan.Kind> seen = EnumSet.noneOf(TxPlan.Kind.class);
        for (long h = 1; h <= 400; h++) for (Tx tx : CHAIN.block(h).txs) seen.add(tx.plan.kind);
        assertEquals(EnumSet.allOf(TxPlan.Kind.class), seen);
    }

    @Test
    @DisplayName(
            "raw txs are real TxRaw: decoded with CosmosTx they give the messages, fee, signer and memo; the hash is SHA-256 of the bytes")
    void rawTxs() {
        for (long h = 1; h <= 40; h++) {
            for (Tx tx : CHAIN.block(h).txs) {
                CosmosTx d = CosmosTx.decode(tx.raw);
                assertEquals(Hex.upper(Hashes.sha256(tx.raw)), tx.hash);
                assertArrayEquals(tx.raw, java.util.Base64.getDecoder().decode(tx.rawBase64));
                assertEquals(
                        tx.msgs.stream().map(Msg::typeUrl).toList(),
                        d.messages().stream().map(CosmosTx.Any::typeUrl).toList());
                for (int i = 0; i < tx.msgs.size(); i++)
                    assertArrayEquals(
                            tx.msgs.get(i).proto(), d.messages().get(i).value());
                assertEquals(tx.memo, d.memo());
                assertEquals(tx.fee, d.fee().amount());
                assertEquals(tx.gasLimit, d.fee().gasLimit());
                CosmosTx.SignerInfo signer = d.signerInfos().get(0);
                assertEquals("/initia.crypto.v1beta1.ethsecp256k1.PubKey", signer.pubKeyType());
                assertEquals(tx.signer.bech32(), signer.address().bech32("init"));
                assertEquals(tx.sequence, signer.sequence());
                // an EVM tx carries its Ethereum signature r || s || v; its EVM hash is not the TxRaw's (EvmTxHashTest
                // pins it)
                assertEquals(tx.evm != null ? 65 : 64, d.signatures().get(0).length);
                if (tx.evm != null)
                    org.junit.jupiter.api.Assertions.assertNotEquals(
                            "0x" + Hex.lower(Hashes.keccak256(tx.raw)), tx.evm.hash());
            }
        }
    }

    @Test
    @DisplayName(
            "a MsgCall has minievm's fields: sender=1, contract_addr=2 (EIP-55), input=3 (hex), value=4, like the initia.js sample")
    void msgCallEncoding() {
        Msg.Call call = new Msg.Call(
                "init17w0adeg64ky0daxwd2ugyuneellmjgnxdtmpqz",
                "0x4BaDFb501Ab304fF11217C44702bb9E9732E7CF4",
                "0xa9059cbb000000000000000000000000b395c9f2e84f75b1686fcdc62f8cb62a572b782000000000000000000000000000000000000000000000000000005af3107a4000",
                "0");
        JsonObject sample = new JsonObject(read("initia-js-offline/signed_tx_msgsend_msgcall.json"));
        CosmosTx real = CosmosTx.decodeBase64(sample.getString("tx_base64"));
        assertArrayEquals(real.messages().get(1).value(), call.proto());
        assertEquals(real.messages().get(1).typeUrl(), call.typeUrl());
        Msg.Send send = new Msg.Send(
                "init17w0adeg64ky0daxwd2ugyuneellmjgnxdtmpqz",
                "init1kw2unuhgfa6mz6r0ehrzlr9k9ftjk7pql8u5fm",
                List.of(new CosmosTx.Coin("uinit", "1000")));
        assertArrayEquals(real.messages().get(0).value(), send.proto());
    }

    static String read(String fixture) {
        try {
            return java.nio.file.Files.readString(dev.weft.testsupport.FixtureChain.FIXTURES.resolve(fixture));
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    @Test
    @DisplayName("sequences count each signer's txs: acc_seq and the EVM nonce go up by one per tx of that signer")
    void sequences() {
        Map<String, Long> next = new HashMap<>();
        for (long h = 1; h <= 400; h++) {
            for (Tx tx : CHAIN.block(h).txs) {
                long expected = next.getOrDefault(tx.signer.bech32(), 0L);
                assertEquals(expected, tx.sequence, "sequence of " + tx.signer.bech32() + " at " + h);
                next.put(tx.signer.bech32(), expected + 1);
                String accSeq = null;
                for (Event e : tx.events)
                    if (e.type().equals("tx") && e.value("acc_seq") != null) accSeq = e.value("acc_seq");
                assertEquals(tx.signer.bech32() + "/" + tx.sequence, accSeq);
                if (tx.evm != null) assertEquals(tx.sequence, tx.evm.nonce());
            }
        }
    }

    @Test
    @DisplayName("receipts, traces and Cosmos evm events agree: same logs in order, same status, the fee log first")
    void evmConsistency() {
        for (long h = 1; h <= 200; h++) {
            Block b = CHAIN.block(h);
            long cumulative = 0;
            int logIndex = 0;
            for (int i = 0; i < b.evmTxs.size(); i++) {
                Tx tx = b.evmTxs.get(i);
                List<String> fromEvents = new ArrayList<>();
                for (Event e : tx.events) if (e.type().equals("evm")) fromEvents.add(e.value("log"));
                assertEquals(
                        fromEvents,
                        tx.evm.logs().stream().map(EvmLog::cosmosJson).toList());
                assertEquals(tx.code == 0, tx.evm.status());
                assertEquals(tx.evm.status(), tx.evm.frame().error() == null);
                assertEquals(tx.gasUsed, tx.evm.frame().gasUsed());
                assertEquals(tx.gasLimit, tx.evm.frame().gas());
                cumulative += tx.evm.gasUsed();
                assertEquals(cumulative, b.cumulativeGas[i]);
                assertEquals(logIndex, b.firstLogIndex[i]);
                logIndex += tx.evm.logs().size();
                if (tx.plan.fee > 0) {
                    EvmLog fee = tx.evm.logs().get(0);
                    assertEquals(CHAIN.genesis().feeToken().contract().hex(), fee.address());
                    assertEquals(
                            CHAIN.genesis().feeCollector().topic(), fee.topics().get(2));
                }
            }
            for (Tx tx : b.txs) assertEquals(tx.evm != null, tx.plan.kind.evm());
        }
    }

    @Test
    @DisplayName("failed txs have a code, a codespace, a log and only the ante events (fee, acc_seq, signature)")
    void failures() {
        int failed = 0;
        for (long h = 2; h <= 200; h++) {
            for (Tx tx : CHAIN.block(h).txs) {
                if (tx.code == 0) continue;
                failed++;
                assertFalse(tx.codespace.isEmpty());
                assertFalse(tx.log.isEmpty());
                assertNull(tx.data);
                List<String> types = tx.events.stream().map(Event::type).toList();
                assertEquals(
                        List.of("call", "evm", "coin_spent", "coin_received", "transfer", "message", "tx", "tx", "tx"),
                        types);
                assertTrue(tx.events.stream().noneMatch(e -> e.value("msg_index") != null));
            }
        }
        assertTrue(failed > 20, "failed txs: " + failed);
    }

    @Test
    @DisplayName(
            "balanceOf at a height equals the sum of the ERC-20 Transfer logs (Cosmos evm events) up to that height")
    void balancesFromLogs() {
        Map<String, BigInteger> balances = new HashMap<>();
        Genesis g = CHAIN.genesis();
        List<Actor> watched = List.of(
                g.actor(0), g.actor(7), g.actor(100), g.actor(g.senderCount() + 3), g.feeCollector(), g.router());
        for (long h = 1; h <= 300; h++) {
            for (Tx tx : CHAIN.block(h).txs) {
                for (Event e : tx.events) {
                    if (!e.type().equals("evm")) continue;
                    JsonObject log = new JsonObject(e.value("log"));
                    JsonArray topics = log.getJsonArray("topics");
                    if (topics.size() != 3 || !topics.getString(0).equals(Abi.TRANSFER_TOPIC)) continue;
                    BigInteger amount = new BigInteger(log.getString("data").substring(2), 16);
                    String token = log.getString("address").toLowerCase();
                    balances.merge(token + topics.getString(1), amount.negate(), BigInteger::add);
                    balances.merge(token + topics.getString(2), amount, BigInteger::add);
                }
            }
            if (h % 50 == 0 || h == 1) {
                for (Token t : g.tokens()) {
                    for (Actor a : watched) {
                        BigInteger fromLogs = balances.getOrDefault(t.contract().hex() + a.topic(), BigInteger.ZERO);
                        assertEquals(
                                fromLogs, CHAIN.balanceOf(t, a.address(), h), t.symbol() + " of " + a + " at " + h);
                    }
                }
            }
        }
        assertTrue(
                CHAIN.balanceOf(g.feeToken(), g.feeCollector().address(), 300).signum() > 0);
        assertEquals(
                BigInteger.ZERO,
                CHAIN.balanceOf(g.feeToken(), g.router().address(), 300),
                "the router forwards all it receives");
    }

    @Test
    @DisplayName(
            "NFT owners follow the Transfer logs: minted, transferred twice, burnt, with ownerOf agreeing at every height")
    void nftLifecycles() {
        Map<String, String> owner = new HashMap<>();
        Genesis g = CHAIN.genesis();
        int mints = 0, burns = 0;
        for (long h = 1; h <= 400; h++) {
            for (Tx tx : CHAIN.block(h).txs) {
                for (EvmLog l : tx.evm == null ? List.<EvmLog>of() : tx.evm.logs()) {
                    if (l.topics().size() != 4) continue;
                    String key =
                            l.address() + "/" + new BigInteger(l.topics().get(3).substring(2), 16);
                    if (l.topics().get(1).equals(Abi.ZERO_TOPIC)) mints++;
                    else assertEquals(owner.get(key), l.topics().get(1), "transfer from the current owner " + key);
                    if (l.topics().get(2).equals(Abi.ZERO_TOPIC)) {
                        owner.remove(key);
                        burns++;
                    } else {
                        owner.put(key, l.topics().get(2));
                    }
                }
            }
            if (h % 100 == 0) {
                for (Map.Entry<String, String> e : owner.entrySet()) {
                    String[] parts = e.getKey().split("/");
                    Collection c = g.collectionAt(Hex.decode(parts[0]));
                    Actor a = CHAIN.ownerOf(c, Long.parseLong(parts[1]), h);
                    assertNotNull(a, e.getKey() + " exists at " + h);
                    assertEquals(e.getValue(), a.topic());
                }
            }
        }
        assertTrue(mints > 10 && burns > 0, "mints " + mints + ", burns " + burns);
    }

    @Test
    @DisplayName(
            "the same spec gives the same blocks; another seed gives others; height 1,000,000 is generated directly")
    void determinism() {
        DevnetChain twin = new DevnetChain(spec(42, 20), 400);
        DevnetChain other = new DevnetChain(spec(43, 20), 400);
        for (long h : new long[] {1, 2, 77, 399}) {
            assertArrayEquals(CHAIN.block(h).hash, twin.block(h).hash);
            assertEquals(
                    CHAIN.block(h).txs.stream().map(t -> t.hash).toList(),
                    twin.block(h).txs.stream().map(t -> t.hash).toList());
            assertFalse(Hex.upper(CHAIN.block(h).hash).equals(Hex.upper(other.block(h).hash)));
        }
        DevnetChain big = new DevnetChain(spec(42, 100), 1_000_000);
        Block b = big.block(1_000_000);
        assertEquals(1_000_000, b.height);
        for (Tx tx : b.txs) assertEquals(tx.hash, CosmosTx.hash(tx.raw));
        AccountAddress signer =
                CosmosTx.decode(b.txs.get(0).raw).signerInfos().get(0).address();
        assertEquals(b.txs.get(0).signer.bech32(), signer.bech32("init"));
    }
}
