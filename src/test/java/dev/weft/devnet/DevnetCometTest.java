package dev.weft.devnet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.chain.Bech32;
import dev.weft.chain.Hex;
import dev.weft.chain.proto.ProtoReader;
import dev.weft.chain.proto.ProtoWriter;
import dev.weft.devnet.gen.Actor;
import dev.weft.devnet.gen.BankBalances;
import dev.weft.devnet.gen.DevnetChain;
import dev.weft.testsupport.WeftExtension;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** CometBFT RPC beyond blocks: JSON-RPC batches, abci_info/abci_query, header, commit, genesis, mempool count, block_search. */
class DevnetCometTest {
    @RegisterExtension
    static final WeftExtension weft = new WeftExtension();

    private static final String COMET = "cometbft-v0.38-kvstore-tendermint-rs/";
    private static DevnetHarness devnet;
    private static DevnetChain chain;

    @BeforeAll
    static void start() {
        devnet = DevnetHarness.start(weft, DevnetHarness.history(60));
        chain = devnet.replica();
    }

    private static JsonObject call(String method, JsonObject params) {
        JsonObject req = new JsonObject()
                .put("jsonrpc", "2.0")
                .put("id", 7)
                .put("method", method)
                .put("params", params);
        return new JsonObject(devnet.post(devnet.rpcPort, req.encode()).body());
    }

    @Test
    @DisplayName(
            "a JSON-RPC batch gets its answers in order (notifications unanswered); a batch of one is answered by one object, as CometBFT does")
    void batches() {
        JsonArray batch = new JsonArray()
                .add(new JsonObject()
                        .put("jsonrpc", "2.0")
                        .put("id", 1)
                        .put("method", "status")
                        .put("params", new JsonObject()))
                .add(new JsonObject()
                        .put("jsonrpc", "2.0")
                        .put("method", "health")
                        .put("params", new JsonObject()))
                .add(new JsonObject()
                        .put("jsonrpc", "2.0")
                        .put("id", "b")
                        .put("method", "block")
                        .put("params", new JsonObject().put("height", "3")))
                .add(new JsonObject()
                        .put("jsonrpc", "2.0")
                        .put("id", 3)
                        .put("method", "nope")
                        .put("params", new JsonObject()));
        JsonArray answers =
                new JsonArray(devnet.post(devnet.rpcPort, batch.encode()).body());
        assertEquals(3, answers.size());
        assertEquals(1, answers.getJsonObject(0).getInteger("id"));
        assertEquals(
                devnet.rpc("/status").getJsonObject("result"),
                answers.getJsonObject(0).getJsonObject("result"));
        assertEquals("b", answers.getJsonObject(1).getString("id"));
        assertEquals(
                devnet.rpc("/block?height=3").getJsonObject("result"),
                answers.getJsonObject(1).getJsonObject("result"));
        assertEquals(-32601, answers.getJsonObject(2).getJsonObject("error").getInteger("code"));
        JsonObject single = new JsonObject(devnet.post(
                        devnet.rpcPort,
                        new JsonArray().add(batch.getJsonObject(2)).encode())
                .body());
        assertEquals("b", single.getString("id"));
        JsonArray tooMany = new JsonArray();
        for (int i = 0; i < 101; i++) tooMany.add(batch.getJsonObject(0));
        assertEquals(
                -32600,
                new JsonObject(devnet.post(devnet.rpcPort, tooMany.encode()).body())
                        .getJsonObject("error")
                        .getInteger("code"));
    }

    @Test
    @DisplayName("abci_info: CometBFT's response fields (app_version 0 omitted), the head and its app hash")
    void abciInfo() {
        JsonObject info = devnet.rpc("/abci_info");
        WireShape.unordered()
                .typeMayDiffer("id")
                .absent("result.response.app_version")
                .check(Fixtures.object(COMET + "abci_info.json"), info);
        JsonObject r = info.getJsonObject("result").getJsonObject("response");
        assertEquals("60", r.getString("last_block_height"));
        assertEquals(
                Base64.getEncoder().encodeToString(chain.block(60).resultsAppHash), r.getString("last_block_app_hash"));
    }

    @Test
    @DisplayName(
            "abci_query answers cosmjs' bank Balance / AllBalances and auth Account queries with protobuf, and the SDK's error codes")
    void abciQuery() {
        Actor a = chain.genesis().actor(0);
        List<BankBalances.Coin> expected = BankBalances.of(chain, a.address(), 60);
        BankBalances.Coin first = expected.get(0);
        byte[] req =
                new ProtoWriter().string(1, a.bech32()).string(2, first.denom()).toByteArray();
        JsonObject r = call(
                        "abci_query",
                        new JsonObject()
                                .put("path", "/cosmos.bank.v1beta1.Query/Balance")
                                .put("data", Hex.lower(req)))
                .getJsonObject("result")
                .getJsonObject("response");
        assertEquals(List.of("value", "height"), new ArrayList<>(r.fieldNames()));
        assertEquals("60", r.getString("height"));
        ProtoReader coin = only(Base64.getDecoder().decode(r.getString("value")), 1);
        assertEquals(List.of(first.denom(), first.amount().toString()), strings(coin));
        // the URI form: path quoted, data 0x-hex; at an earlier height
        JsonObject uri = devnet.rpc(
                "/abci_query?path=%22/cosmos.bank.v1beta1.Query/Balance%22&data=0x" + Hex.lower(req) + "&height=30");
        assertEquals("30", uri.getJsonObject("result").getJsonObject("response").getString("height"));

        // AllBalances, a page of two with the total counted
        byte[] all = new ProtoWriter()
                .string(1, a.bech32())
                .message(2, new ProtoWriter().varint(3, 2).bool(4, true))
                .toByteArray();
        r = call(
                        "abci_query",
                        new JsonObject()
                                .put("path", "/cosmos.bank.v1beta1.Query/AllBalances")
                                .put("data", Hex.lower(all)))
                .getJsonObject("result")
                .getJsonObject("response");
        ProtoReader page = new ProtoReader(Base64.getDecoder().decode(r.getString("value")));
        List<String> coins = new ArrayList<>();
        long total = -1;
        byte[] nextKey = null;
        while (page.next()) {
            if (page.field() == 1) {
                coins.addAll(strings(new ProtoReader(page.bytes())));
            } else {
                ProtoReader p = new ProtoReader(page.bytes());
                while (p.next()) {
                    if (p.field() == 1) nextKey = p.bytes();
                    else total = p.varint();
                }
            }
        }
        assertEquals(
                List.of(
                        expected.get(0).denom(),
                        expected.get(0).amount().toString(),
                        expected.get(1).denom(),
                        expected.get(1).amount().toString()),
                coins);
        assertEquals(expected.size(), total);
        assertEquals(expected.get(2).denom(), new String(nextKey));

        // Account: an Any holding the BaseAccount
        byte[] acc = new ProtoWriter().string(1, a.bech32()).toByteArray();
        r = call(
                        "abci_query",
                        new JsonObject()
                                .put("path", "/cosmos.auth.v1beta1.Query/Account")
                                .put("data", Hex.lower(acc)))
                .getJsonObject("result")
                .getJsonObject("response");
        ProtoReader any = only(Base64.getDecoder().decode(r.getString("value")), 1);
        assertTrue(any.next());
        assertEquals("/cosmos.auth.v1beta1.BaseAccount", any.string());
        assertTrue(any.next());
        ProtoReader base = new ProtoReader(any.bytes());
        assertTrue(base.next());
        assertEquals(a.bech32(), base.string());
        assertTrue(base.next());
        assertEquals(3, base.field());
        assertEquals(a.accountNumber(), base.varint());

        String stranger = Bech32.encode("init", new byte[20]);
        r = call(
                        "abci_query",
                        new JsonObject()
                                .put("path", "/cosmos.auth.v1beta1.Query/Account")
                                .put(
                                        "data",
                                        Hex.lower(new ProtoWriter()
                                                .string(1, stranger)
                                                .toByteArray())))
                .getJsonObject("result")
                .getJsonObject("response");
        assertEquals(
                new JsonObject()
                        .put("code", 38)
                        .put(
                                "log",
                                "rpc error: code = NotFound desc = account " + stranger + " not found: key not found")
                        .put("height", "60")
                        .put("codespace", "sdk"),
                r);
        r = call(
                        "abci_query",
                        new JsonObject()
                                .put("path", "/cosmos.bank.v1beta1.Query/Balance")
                                .put(
                                        "data",
                                        Hex.lower(new ProtoWriter()
                                                .string(1, "cosmos1nope")
                                                .string(2, "uinit")
                                                .toByteArray())))
                .getJsonObject("result")
                .getJsonObject("response");
        assertEquals(18, r.getInteger("code"));
        assertTrue(
                r.getString("log").startsWith("rpc error: code = InvalidArgument desc = invalid address: "),
                r.getString("log"));
        r = call(
                        "abci_query",
                        new JsonObject()
                                .put("path", "/cosmos.nope.v1.Query/Nope")
                                .put("data", ""))
                .getJsonObject("result")
                .getJsonObject("response");
        assertEquals(6, r.getInteger("code"));
    }

    @Test
    @DisplayName(
            "abci_query Simulate answers gas_info.gas_used (ante 40000 + MsgSend 80000) for cosmjs' fee \"auto\"; undecodable bytes get CheckTx code 2; the well-known test key has an account holding its genesis grant")
    void simulateAndTestAccount() {
        // as cosmjs simulates: the signer's key and sequence, an empty signature (Simulate verifies none)
        String alice = dev.weft.testsupport.DevnetAccounts.ALICE;
        byte[] alicePub =
                dev.weft.chain.AccountAddress.compressedPublicKey(dev.weft.testsupport.DevnetAccounts.keyOf(alice));
        JsonObject send = new JsonObject()
                .put("from_address", alice)
                .put("to_address", alice)
                .put(
                        "amount",
                        new JsonArray()
                                .add(new JsonObject().put("denom", "uinit").put("amount", "1")));
        byte[] tx = new dev.weft.chain.CosmosTx(
                        List.of(new dev.weft.chain.CosmosTx.Any(
                                dev.weft.devnet.tx.MsgTypes.SEND,
                                dev.weft.devnet.tx.MsgTypes.of(dev.weft.devnet.tx.MsgTypes.SEND)
                                        .schema()
                                        .encode(send))),
                        "",
                        0,
                        List.of(new dev.weft.chain.CosmosTx.SignerInfo(
                                dev.weft.devnet.tx.DirectSign.ETHSECP256K1, alicePub, 0)),
                        new dev.weft.chain.CosmosTx.Fee(List.of(), 200_000, "", ""),
                        List.of(new byte[0]))
                .encode();
        JsonObject r = call(
                        "abci_query",
                        new JsonObject()
                                .put("path", "/cosmos.tx.v1beta1.Service/Simulate")
                                .put(
                                        "data",
                                        Hex.lower(new ProtoWriter().bytes(2, tx).toByteArray())))
                .getJsonObject("result")
                .getJsonObject("response");
        assertEquals(null, r.getInteger("code"), r.encode());
        ProtoReader response = new ProtoReader(Base64.getDecoder().decode(r.getString("value")));
        assertTrue(response.next());
        assertEquals(1, response.field());
        ProtoReader g = new ProtoReader(response.bytes());
        long gasUsed = -1;
        while (g.next()) {
            if (g.field() == 2) gasUsed = g.varint();
            else g.skip();
        }
        assertEquals(120_000, gasUsed);
        r = call(
                        "abci_query",
                        new JsonObject()
                                .put("path", "/cosmos.tx.v1beta1.Service/Simulate")
                                .put(
                                        "data",
                                        Hex.lower(new ProtoWriter()
                                                .bytes(2, new byte[] {1, 2, 3})
                                                .toByteArray())))
                .getJsonObject("result")
                .getJsonObject("response");
        assertEquals(2, r.getInteger("code"), r.encode());
        // the ante handler still runs: an account the chain never saw cannot pay the fee
        dev.weft.devnet.tx.SystemSigner stranger = new dev.weft.devnet.tx.SystemSigner(
                "simulate-test", chain.spec().chainId(), "init", null, 1);
        byte[] strangers = stranger.sign(List.of(new dev.weft.devnet.tx.SystemSigner.Message(
                dev.weft.devnet.tx.MsgTypes.SEND, send.copy().put("from_address", stranger.address()))));
        r = call(
                        "abci_query",
                        new JsonObject()
                                .put("path", "/cosmos.tx.v1beta1.Service/Simulate")
                                .put(
                                        "data",
                                        Hex.lower(new ProtoWriter()
                                                .bytes(2, strangers)
                                                .toByteArray())))
                .getJsonObject("result")
                .getJsonObject("response");
        assertEquals(9, r.getInteger("code"), r.encode());
        assertEquals(
                "fee payer address: " + stranger.address() + " does not exist: unknown address", r.getString("log"));

        String testAccount = dev.weft.chain.AccountAddress.fromSecp256k1(
                        dev.weft.chain.AccountAddress.compressedPublicKey(dev.weft.devnet.world.World.TEST_ACCOUNT_KEY))
                .bech32("init");
        assertEquals("init10xcqpzrky6eff2g52qdye53xkk9jxkvr0k60tp", testAccount);
        r = call(
                        "abci_query",
                        new JsonObject()
                                .put("path", "/cosmos.auth.v1beta1.Query/Account")
                                .put(
                                        "data",
                                        Hex.lower(new ProtoWriter()
                                                .string(1, testAccount)
                                                .toByteArray())))
                .getJsonObject("result")
                .getJsonObject("response");
        assertEquals(null, r.getInteger("code"), r.encode());
        String fee = "l2/771d639f30fbe45e3fbca954ffbe2fcc26f915f5513c67a4a2d0bc1d635bdefd";
        r = call(
                        "abci_query",
                        new JsonObject()
                                .put("path", "/cosmos.bank.v1beta1.Query/Balance")
                                .put(
                                        "data",
                                        Hex.lower(new ProtoWriter()
                                                .string(1, testAccount)
                                                .string(2, fee)
                                                .toByteArray())))
                .getJsonObject("result")
                .getJsonObject("response");
        ProtoWriter coin =
                new ProtoWriter().string(1, fee).string(2, dev.weft.devnet.world.World.TEST_ACCOUNT_COINS.toString());
        assertEquals(
                Base64.getEncoder()
                        .encodeToString(new ProtoWriter().message(1, coin).toByteArray()),
                r.getString("value"));
    }

    private static ProtoReader only(byte[] message, int field) {
        ProtoReader r = new ProtoReader(message);
        assertTrue(r.next());
        assertEquals(field, r.field());
        ProtoReader inner = new ProtoReader(r.bytes());
        assertFalse(r.next());
        return inner;
    }

    private static List<String> strings(ProtoReader r) {
        List<String> out = new ArrayList<>();
        while (r.next()) out.add(r.string());
        return out;
    }

    @Test
    @DisplayName(
            "header and commit: the block's header; the commit its next block carries, canonical below the head; CometBFT's fields")
    void headerAndCommit() {
        JsonObject header = devnet.rpc("/header?height=10").getJsonObject("result");
        assertEquals(
                new JsonObject()
                        .put(
                                "header",
                                devnet.rpc("/block?height=10")
                                        .getJsonObject("result")
                                        .getJsonObject("block")
                                        .getJsonObject("header")),
                header);
        JsonObject commit = devnet.rpc("/commit?height=10");
        WireShape.unordered()
                .typeMayDiffer("id")
                .absent("result.signed_header.header.version.app")
                .check(Fixtures.object(COMET + "commit_at_height_10.json"), commit);
        JsonObject signed = commit.getJsonObject("result").getJsonObject("signed_header");
        assertEquals(header.getJsonObject("header"), signed.getJsonObject("header"));
        JsonObject lastCommit = devnet.rpc("/block?height=11")
                .getJsonObject("result")
                .getJsonObject("block")
                .getJsonObject("last_commit");
        assertEquals(lastCommit, signed.getJsonObject("commit"));
        assertTrue(commit.getJsonObject("result").getBoolean("canonical"));
        assertFalse(devnet.rpc("/commit").getJsonObject("result").getBoolean("canonical"));
        assertEquals(
                "60",
                devnet.rpc("/commit")
                        .getJsonObject("result")
                        .getJsonObject("signed_header")
                        .getJsonObject("header")
                        .getString("height"));
    }

    @Test
    @DisplayName("genesis has CometBFT's genesis document fields; num_unconfirmed_txs counts an empty mempool")
    void genesisAndMempool() {
        JsonObject genesis = devnet.rpc("/genesis");
        WireShape.unordered()
                .typeMayDiffer("id")
                .extra("result.genesis.app_state")
                .check(Fixtures.object(COMET + "genesis.json"), genesis);
        JsonObject g = genesis.getJsonObject("result").getJsonObject("genesis");
        assertEquals("weft-devnet-1", g.getString("chain_id"));
        assertEquals("2025-06-01T00:00:00Z", g.getString("genesis_time"));
        assertEquals(
                chain.genesis().validators().get(0).addressHex(),
                g.getJsonArray("validators").getJsonObject(0).getString("address"));
        assertEquals(
                new JsonObject("{\"n_txs\":\"0\",\"total\":\"0\",\"total_bytes\":\"0\",\"txs\":null}"),
                devnet.rpc("/num_unconfirmed_txs").getJsonObject("result"));
    }

    @Test
    @DisplayName(
            "block_search by block.height and block events: CometBFT's {blocks: [{block_id, block}], total_count}, paged, ordered")
    void blockSearch() {
        JsonObject found = devnet.rpc(
                "/block_search?query=%22block.height%3E%3D5%20AND%20block.height%3C%3D7%22&order_by=%22desc%22");
        WireShape.unordered()
                .typeMayDiffer("id", "result.blocks[].block.evidence.evidence", "result.blocks[].block.data.txs")
                .check(Fixtures.object(COMET + "block_search_evidence.json"), found);
        JsonArray blocks = found.getJsonObject("result").getJsonArray("blocks");
        assertEquals("3", found.getJsonObject("result").getString("total_count"));
        for (int i = 0; i < 3; i++)
            assertEquals(devnet.rpc("/block?height=" + (7 - i)).getJsonObject("result"), blocks.getJsonObject(i));
        JsonObject byEvent = call("block_search", new JsonObject().put("query", "devnet_begin_block.height=12"));
        assertEquals("1", byEvent.getJsonObject("result").getString("total_count"));
        assertEquals(
                "12",
                byEvent.getJsonObject("result")
                        .getJsonArray("blocks")
                        .getJsonObject(0)
                        .getJsonObject("block")
                        .getJsonObject("header")
                        .getString("height"));
    }
}
