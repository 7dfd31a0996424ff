package dev.weft.ingest;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.weft.chain.AccountAddress;
import dev.weft.config.WeftConfig;
import dev.weft.model.ingest.IndexedBlock;
import dev.weft.model.nft.NftEvent;
import dev.weft.model.nft.NftFold;
import dev.weft.store.Database;
import dev.weft.store.IngestStore;
import dev.weft.store.NftStore;
import dev.weft.testsupport.FixtureChain;
import dev.weft.testsupport.TestConfig;
import dev.weft.testsupport.TestDatabase;
import dev.weft.testsupport.TestNodes;
import dev.weft.testsupport.WeftExtension;
import io.vertx.core.Vertx;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The NFT part of the ingest commit, on synthetic changes injected into fixture blocks: a token minted, transferred
 * and burnt (also re-minted) within one committed run or across runs gives the same rows as block-by-block commits;
 * counts, owners, heights and tx links are exact; Move tokens are followed by their object across runs.
 */
class NftIngestTest {
    @RegisterExtension
    static final WeftExtension weft = new WeftExtension();

    /** Fixture heights that hold txs (h % 4 txs each), so every change has a tx to link. */
    static final long[] HEIGHTS = {1, 2, 3, 5, 6, 7};

    static final AccountAddress COLL = a20(0xC0);
    static final AccountAddress ALICE = a20(0xA1);
    static final AccountAddress BOB = a20(0xB0);
    static final AccountAddress CAROL = a20(0xCA);

    Vertx vertx;
    Database db;
    String url;
    FixtureBlocks blocks;

    @BeforeEach
    void start() {
        vertx = weft.vertx();
        TestConfig c = weft.config();
        url = (String) c.get("database.url");
        WeftConfig config = c.build();
        db = weft.database(c);
        blocks = new FixtureBlocks(FixtureChain.offline("fixture-1"), config.chain());
    }

    static AccountAddress a20(int b) {
        byte[] x = new byte[20];
        Arrays.fill(x, (byte) b);
        return AccountAddress.of(x);
    }

    static AccountAddress a32(int b) {
        byte[] x = new byte[32];
        Arrays.fill(x, 1, 32, (byte) b);
        return AccountAddress.of(x);
    }

    /** Heights 1..7 with the given changes at the heights of {@link #HEIGHTS}. */
    List<IndexedBlock> chain(List<List<NftEvent>> changes) {
        List<IndexedBlock> out = new ArrayList<>();
        for (IndexedBlock b : blocks.range(1, 7)) {
            int k = Arrays.binarySearch(HEIGHTS, b.height());
            out.add(b.withNfts(k >= 0 && k < changes.size() ? changes.get(k) : List.of()));
        }
        return out;
    }

    /**
     * ERC-721 style: ids 9, 10, 100, 2 and 55 (a transfer of a token minted before the indexed history, which takes the
     * URI read at the transfer; a stored token keeps its own).
     */
    static List<List<NftEvent>> evmStory() {
        return List.of(
                List.of(
                        NftEvent.collection(0, COLL, null, "Fancy Cats!"),
                        NftEvent.mint(0, COLL, "9", null, ALICE, "ipfs://9"),
                        NftEvent.mint(0, COLL, "10", null, ALICE, "ipfs://10"),
                        NftEvent.mint(0, COLL, "100", null, BOB, "ipfs://100")),
                List.of(
                        NftEvent.collection(0, COLL, null, "Fancy Cats!"),
                        NftEvent.transfer(0, COLL, "9", null, BOB).withText("ipfs://9-read-at-transfer"),
                        NftEvent.mint(1, COLL, "2", null, ALICE, "ipfs://2")),
                List.of(
                        NftEvent.collection(0, COLL, null, "Fancy Cats!"),
                        NftEvent.burn(0, COLL, "10", null),
                        NftEvent.transfer(1, COLL, "100", null, ALICE)),
                List.of(
                        NftEvent.collection(0, COLL, null, "Fancy Cats!"),
                        NftEvent.mint(0, COLL, "10", null, CAROL, "ipfs://10b")),
                List.of(
                        NftEvent.collection(0, COLL, null, "Fancy Cats!"),
                        NftEvent.transfer(0, COLL, "2", null, BOB),
                        NftEvent.burn(1, COLL, "2", null)),
                List.of(
                        NftEvent.collection(0, COLL, null, "Fancy Cats!"),
                        NftEvent.transfer(0, COLL, "55", null, ALICE).withText("ipfs://55")));
    }

    IngestStore.Position commit(
            IngestStore s, List<IndexedBlock> chain, long from, long to, IngestStore.Position before) {
        IngestStore.Batch b = IngestStoreTest.prepared(s, chain.subList((int) from - 1, (int) to), before);
        TestNodes.await(s.commit(b));
        return b.after();
    }

    /** The database after committing heights 1..7 in the given runs (each run: first..last height). */
    Map<String, List<String>> run(boolean evm, List<List<NftEvent>> story, long[][] runs) throws Exception {
        String u = TestDatabase.freshUrl();
        Database d = TestNodes.await(Database.start(
                vertx, weft.config().set("database.url", u).build().database()));
        try {
            IngestStore s = new IngestStore(d.pool(), 1000, evm, "test-1");
            IngestStore.Position p = TestNodes.await(s.position());
            List<IndexedBlock> chain = chain(story);
            for (long[] r : runs) p = commit(s, chain, r[0], r[1], p);
            IngestDump.assertConsistent(u);
            return IngestDump.dump(u);
        } finally {
            TestNodes.await(d.close());
        }
    }

    static final long[][] ONE_BY_ONE = {{1, 1}, {2, 2}, {3, 3}, {4, 4}, {5, 5}, {6, 6}, {7, 7}};
    static final long[][] ONE_RUN = {{1, 7}};
    static final long[][] TWO_RUNS = {{1, 3}, {4, 7}};

    @Test
    @DisplayName(
            "ERC-721 lifecycle (mint, transfer, burn, re-mint, mint+transfer+burn in one block): one run or block by block, the same rows; owners, counts, heights, links exact")
    void evmLifecycle() throws Exception {
        Map<String, List<String>> each = run(true, evmStory(), ONE_BY_ONE);
        IngestDump.assertSame(each, run(true, evmStory(), ONE_RUN));
        IngestDump.assertSame(each, run(true, evmStory(), TWO_RUNS));
        String c = "c0".repeat(20);
        assertEquals(
                List.of(
                        c + "|10|null|" + "ca".repeat(20) + "|ipfs://10b|5|" + FixtureChain.timeNs(5),
                        c + "|100|null|" + "a1".repeat(20) + "|ipfs://100|3|" + FixtureChain.timeNs(3),
                        c + "|55|null|" + "a1".repeat(20) + "|ipfs://55|7|" + FixtureChain.timeNs(7),
                        c + "|9|null|" + "b0".repeat(20) + "|ipfs://9|2|" + FixtureChain.timeNs(2)),
                each.get("nft"));
        assertEquals(1, each.get("nft_collection").size());
        String firstSigner = each.get("tx").get(0).split("\\|")[5];
        assertEquals(
                c + "|Fancy Cats!||fancycats||" + firstSigner + "|1|" + FixtureChain.timeNs(1) + "|4",
                each.get("nft_collection").get(0),
                "no indexed tx touches the contract: dated by the first block that shows it, created by that tx's signer");
        long s1 = 1; // first tx of height 1
        long s2 = 2; // height 1 has 1 tx
        long s3 = s2 + 2; // height 2 has 2
        long s5 = s3 + 3; // height 3 has 3, height 4 none
        long s6 = s5 + 1;
        long s7 = s6 + 2;
        assertEquals(
                List.of(
                        c + "|10|" + s1,
                        c + "|100|" + s1,
                        c + "|9|" + s1,
                        c + "|9|" + s2,
                        c + "|2|" + (s2 + 1),
                        c + "|10|" + s3,
                        c + "|100|" + (s3 + 1),
                        c + "|10|" + s5,
                        c + "|2|" + s6,
                        c + "|2|" + (s6 + 1),
                        c + "|55|" + s7),
                each.get("tx_nft"));
        // one activity row per change, in chain order: (sequence, position among the block's NFT events), kind
        // (1 mint, 2 transfer, 3 burn), the new owner
        String a1 = "a1".repeat(20);
        String b0 = "b0".repeat(20);
        assertEquals(
                List.of(
                        c + "|" + s1 + "|1|9|1|" + a1 + "|1",
                        c + "|" + s1 + "|2|10|1|" + a1 + "|1",
                        c + "|" + s1 + "|3|100|1|" + b0 + "|1",
                        c + "|" + s2 + "|1|9|2|" + b0 + "|2",
                        c + "|" + (s2 + 1) + "|2|2|1|" + a1 + "|2",
                        c + "|" + s3 + "|1|10|3|null|3",
                        c + "|" + (s3 + 1) + "|2|100|2|" + a1 + "|3",
                        c + "|" + s5 + "|1|10|1|" + "ca".repeat(20) + "|5",
                        c + "|" + s6 + "|1|2|2|" + b0 + "|6",
                        c + "|" + (s6 + 1) + "|2|2|3|null|6",
                        c + "|" + s7 + "|1|55|2|" + a1 + "|7"),
                each.get("nft_activity"));
        assertEquals(List.of(c + "|" + s1), each.get("nft_collection_tx"), "created by the first tx that shows it");
    }

    @Test
    @DisplayName(
            "token order is byte-wise lexicographic: \"9\" > \"55\" > \"100\" > \"10\" descending, whatever their heights")
    void lexicographicOrder() throws Exception {
        IngestStore s = new IngestStore(db.pool(), 1000, true, "test-1");
        List<IndexedBlock> chain = chain(evmStory());
        commit(s, chain, 1, 7, TestNodes.await(s.position()));
        NftStore store = new NftStore(db.pool());
        var desc = TestNodes.await(
                store.tokens(null, COLL.bytes(), null, NftStore.TokenOrder.TOKEN_ID, true, null, 0, 10, true));
        assertEquals(
                List.of("9", "55", "100", "10"),
                desc.rows().stream().map(NftStore.Token::tokenId).toList());
        assertEquals(4, desc.total());
        var asc = TestNodes.await(
                store.tokens(null, COLL.bytes(), null, NftStore.TokenOrder.TOKEN_ID, false, null, 0, 10, true));
        assertEquals(
                List.of("10", "100", "55", "9"),
                asc.rows().stream().map(NftStore.Token::tokenId).toList());
        var byHeight = TestNodes.await(
                store.tokens(null, COLL.bytes(), null, NftStore.TokenOrder.HEIGHT, true, null, 0, 10, true));
        assertEquals(
                List.of("55", "10", "100", "9"),
                byHeight.rows().stream().map(NftStore.Token::tokenId).toList());
        var page = TestNodes.await(
                store.tokens(ALICE.bytes(), null, null, NftStore.TokenOrder.TOKEN_ID, true, null, 1, 1, true));
        assertEquals(
                List.of("100"),
                page.rows().stream().map(NftStore.Token::tokenId).toList());
        assertEquals(2, page.total());
        assertEquals(false, page.more());
    }

    /** Move: a collection created with its creator, a token minted to it, moved by object transfers, its URI mutated, burnt. */
    static List<List<NftEvent>> moveStory() {
        AccountAddress coll = a32(0x11);
        AccountAddress obj = a32(0x22);
        AccountAddress other = a32(0x33);
        return List.of(
                List.of(NftEvent.collection(0, coll, CAROL, "Move Badges")),
                List.of(
                        NftEvent.collection(0, coll, CAROL, "Move Badges"),
                        NftEvent.mint(0, coll, "1", obj, null, "ipfs://m1"),
                        NftEvent.transfer(0, null, null, obj, ALICE),
                        NftEvent.transfer(1, null, null, other, BOB)),
                List.of(NftEvent.uri(0, obj, "ipfs://m1-v2")),
                List.of(NftEvent.transfer(0, null, null, obj, BOB)),
                List.of(
                        NftEvent.collection(0, coll, CAROL, "Move Badges"),
                        NftEvent.mint(0, coll, "2", a32(0x44), null, "ipfs://m2")),
                List.of(NftEvent.collection(0, coll, CAROL, "Move Badges"), NftEvent.burn(0, coll, "1", obj)));
    }

    @Test
    @DisplayName(
            "Move tokens followed by their object: minted to the collection's creator, moved, URI changed, burnt, across runs or in one")
    void moveLifecycle() throws Exception {
        Map<String, List<String>> each = run(false, moveStory(), ONE_BY_ONE);
        IngestDump.assertSame(each, run(false, moveStory(), ONE_RUN));
        IngestDump.assertSame(each, run(false, moveStory(), TWO_RUNS));
        String coll = "00" + "11".repeat(31);
        assertEquals(
                List.of(coll + "|2|00" + "44".repeat(31) + "|" + "ca".repeat(20) + "|ipfs://m2|6|"
                        + FixtureChain.timeNs(6)),
                each.get("nft"),
                "token 2 belongs to the creator; token 1 is burnt");
        assertEquals(
                coll + "|Move Badges||movebadges||" + "ca".repeat(20) + "|1|" + FixtureChain.timeNs(1) + "|1",
                each.get("nft_collection").get(0));
        long s2 = 2;
        long s3 = 4;
        long s5 = 7;
        long s6 = 8;
        long s7 = 10;
        assertEquals(
                List.of(coll + "|1|" + s2, coll + "|1|" + s3, coll + "|1|" + s5, coll + "|2|" + s6, coll + "|1|" + s7),
                each.get("tx_nft"),
                "every change of token 1 links its tx (the object transfer of another object links nothing)");
        // the object-only changes (transfers, URI) of token 1 are its activities too, in one run or across runs
        // (resolved then through the stored token); the mint to nobody goes to the collection's creator
        String carol = "ca".repeat(20);
        assertEquals(
                List.of(
                        coll + "|" + s2 + "|1|1|1|" + carol + "|2",
                        coll + "|" + s2 + "|2|1|2|" + "a1".repeat(20) + "|2",
                        coll + "|" + s3 + "|0|1|4|null|3",
                        coll + "|" + s5 + "|0|1|2|" + "b0".repeat(20) + "|5",
                        coll + "|" + s6 + "|1|2|1|" + carol + "|6",
                        coll + "|" + s7 + "|1|1|3|null|7"),
                each.get("nft_activity"));
    }

    @Test
    @DisplayName(
            "ICS-721: a recv_packet from nft-transfer names the received collection's origin (classData.name); origin_name and the by-name search text follow")
    void ibcOriginName() throws Exception {
        String classData = java.util.Base64.getEncoder()
                .encodeToString("{\"name\":\"Initia Kittens\",\"description\":\"\"}"
                        .getBytes(java.nio.charset.StandardCharsets.UTF_8));
        String packet = new io.vertx.core.json.JsonObject()
                .put("classData", classData)
                .put("classId", "0x1234")
                .put("classUri", "")
                .put("tokenIds", new io.vertx.core.json.JsonArray().add("7"))
                .put("sender", "init1x")
                .put("receiver", "init1y")
                .encode();
        dev.weft.chain.model.AbciEvent recv = new dev.weft.chain.model.AbciEvent(
                "recv_packet",
                List.of(
                        new dev.weft.chain.model.AbciEvent.Attribute("packet_data", packet, true),
                        new dev.weft.chain.model.AbciEvent.Attribute("packet_src_port", "nft-transfer", true),
                        new dev.weft.chain.model.AbciEvent.Attribute("packet_dst_port", "nft-transfer", true),
                        new dev.weft.chain.model.AbciEvent.Attribute("packet_dst_channel", "channel-3", true)));
        // the class id Initia's nft-transfer gives it: ibc/ + SHA-256 of "nft-transfer/channel-3/0x1234" (upper hex)
        String classId = "ibc/"
                + dev.weft.chain.Hex.upper(dev.weft.chain.Hashes.sha256(
                        "nft-transfer/channel-3/0x1234".getBytes(java.nio.charset.StandardCharsets.UTF_8)));
        List<NftEvent> parsed = new ArrayList<>();
        dev.weft.nft.NftParser.forChain(
                        weft.config().set("chain.vm", "move").build().chain())
                .parse(0, List.of(recv), parsed);
        assertEquals(List.of(NftEvent.origin(0, classId, "Initia Kittens")), parsed);
        List<NftEvent> wasm = new ArrayList<>();
        dev.weft.nft.NftParser.forChain(
                        weft.config().set("chain.vm", "wasm").build().chain())
                .parse(0, List.of(recv), wasm);
        assertEquals(List.of(NftEvent.origin(0, "nft-transfer/channel-3/0x1234", "Initia Kittens")), wasm);

        List<List<NftEvent>> story = List.of(List.of(
                NftEvent.collection(0, COLL, ALICE, classId),
                NftEvent.mint(0, COLL, "7", null, ALICE, ""),
                parsed.get(0)));
        Map<String, List<String>> rows = run(false, story, ONE_RUN);
        assertEquals(
                COLL.hex().substring(2) + "|" + classId + "|Initia Kittens|" + NftFold.search(classId, "Initia Kittens")
                        + "|" + "a1".repeat(20) + "|1|" + FixtureChain.timeNs(1) + "|1",
                rows.get("nft_collection").get(0));
    }

    /** The chain with {@code account} added to the involved accounts of tx {@code txIndex} of {@code height}. */
    static List<IndexedBlock> involving(List<IndexedBlock> chain, long height, int txIndex, AccountAddress account) {
        List<IndexedBlock> out = new ArrayList<>();
        for (IndexedBlock b : chain) {
            if (b.height() != height) {
                out.add(b);
                continue;
            }
            List<IndexedBlock.Tx> txs = new ArrayList<>(b.txs());
            IndexedBlock.Tx t = txs.get(txIndex);
            Map<AccountAddress, Boolean> accounts = new java.util.LinkedHashMap<>(t.accounts());
            accounts.put(account, false);
            txs.set(
                    txIndex,
                    new IndexedBlock.Tx(
                            t.hash(),
                            t.code(),
                            t.json(),
                            t.signer(),
                            accounts,
                            t.msgTypes(),
                            t.transfers(),
                            t.coinDenoms()));
            out.add(new IndexedBlock(
                    b.height(),
                    b.chainId(),
                    b.hash(),
                    b.timeNs(),
                    b.proposerAddress(),
                    b.proposer(),
                    b.gasUsed(),
                    b.gasWanted(),
                    b.totalFee(),
                    txs,
                    b.evmTxs(),
                    b.nfts(),
                    b.previousTimeNs()));
        }
        return out;
    }

    @Test
    @DisplayName(
            "Move tx history (rollytics): a live token's NFT changes and every tx involving its object, by sequence; a burnt token keeps its changes")
    void moveHistoryWithObjectTxs() throws Exception {
        IngestStore s = new IngestStore(db.pool(), 1000, false, "test-1");
        // height 7's second tx (sequence 11) involves token 2's object without an NFT event (a marketplace listing,
        // say)
        commit(s, involving(chain(moveStory()), 7, 1, a32(0x44)), 1, 7, TestNodes.await(s.position()));
        NftStore store = new NftStore(db.pool());
        byte[] coll = a32(0x11).bytes();
        var live = TestNodes.await(store.txs(coll, "2", true, true, Long.MAX_VALUE, 0, 10, true));
        assertEquals(List.of(11L, 8L), live.keys());
        assertEquals(2, live.total());
        var asc = TestNodes.await(store.txs(coll, "2", true, false, 8, 0, 10, true));
        assertEquals(List.of(11L), asc.keys(), "keyset after sequence 8, ascending");
        assertEquals(
                List.of(8L),
                TestNodes.await(store.txs(coll, "2", false, true, Long.MAX_VALUE, 0, 10, true))
                        .keys(),
                "EVM and Wasm: the NFT changes only");
        var burnt = TestNodes.await(store.txs(coll, "1", true, true, Long.MAX_VALUE, 1, 2, true));
        assertEquals(List.of(7L, 4L), burnt.keys());
        assertEquals(4, burnt.total());
        assertEquals(true, burnt.more());
    }
}
