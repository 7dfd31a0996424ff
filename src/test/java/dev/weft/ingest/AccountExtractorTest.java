package dev.weft.ingest;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.weft.chain.AccountAddress;
import dev.weft.chain.model.NodeJson;
import dev.weft.config.ChainConfig;
import dev.weft.testsupport.FixtureChain;
import dev.weft.testsupport.TestConfig;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The accounts a tx involves (for by_account) from real minievm events and Anvil receipts. */
class AccountExtractorTest {
    static final ChainConfig EVM = TestConfig.defaults().build().chain();

    static AccountAddress a(String s) {
        return AccountAddress.parse(s, "init");
    }

    @Test
    @DisplayName(
            "a real minievm bank tx: bech32 and hex forms of one account are one account; contract, fee collector and Transfer topics")
    void bankTx() {
        JsonArray events = FixtureChain.read("initia-minievm-tx-decoder-fixtures/bank-evm.json")
                .getJsonObject("bankSendWithEvmLogTxResponse")
                .getJsonArray("events");
        Map<AccountAddress, Boolean> out = new LinkedHashMap<>();
        new AccountExtractor(EVM).fromEvents(Nodes.events(events), out);
        assertEquals(
                Set.of(
                        a("0xE1Ff7038eAAAF027031688E1535a055B2Bac2546"), // call.contract and the log address
                        a("init1kw2unuhgfa6mz6r0ehrzlr9k9ftjk7pql8u5fm"), // sender = topic 0x…b395c9f2…
                        a("init17xpfvakm2amg962yls6f84z3kell8c5l70rnql")), // fee collector = topic 0x…f1829676…
                out.keySet());
        assertEquals(a("init1kw2unuhgfa6mz6r0ehrzlr9k9ftjk7pql8u5fm"), a("0xb395c9f2e84f75b1686fcdc62f8cb62a572b7820"));
        assertEquals(Set.of(false), Set.copyOf(out.values()));
    }

    @Test
    @DisplayName("never call return values, the zero address, small padded numbers, wrong prefixes or bad checksums")
    void noise() {
        JsonArray events = new JsonArray()
                .add(ev("call", "ret", "0x000000000000000000000000b395c9f2e84f75b1686fcdc62f8cb62a572b7820"))
                .add(ev("call", "ret", "0xE1Ff7038eAAAF027031688E1535a055B2Bac2546"))
                .add(ev("x", "to", "0x0000000000000000000000000000000000000000"))
                .add(ev("x", "hash", "0x8f43bac70798946b1838fe6118170134f53fa7af85a5775d1a0df76783afcf00"))
                .add(ev("x", "who", "cosmos1kw2unuhgfa6mz6r0ehrzlr9k9ftjk7pqy2ssn3"))
                .add(ev("x", "who", "init1kw2unuhgfa6mz6r0ehrzlr9k9ftjk7pql8u5fx"))
                .add(ev("x", "amount", "100uinit"))
                .add(ev(
                        "evm",
                        "log",
                        new JsonObject()
                                .put("address", "0x4badfb501ab304ff11217c44702bb9e9732e7cf4")
                                .put(
                                        "topics",
                                        new JsonArray()
                                                .add(
                                                        "0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef")
                                                .add(
                                                        "0x0000000000000000000000000000000000000000000000000000000000000000")
                                                .add(
                                                        "0x000000000000000000000000f39fd6e51aad88f6f4ce6ab8827279cfffb92266")
                                                .add(
                                                        "0x0000000000000000000000000000000000000000000000000000000000000002"))
                                .put("data", "0x")
                                .encode()))
                .add(ev(
                        "x",
                        "pair",
                        "init17xpfvakm2amg962yls6f84z3kell8c5l70rnql, 0x90F79bf6EB2c4f870365E785982E1f101E93b906"));
        Map<AccountAddress, Boolean> out = new LinkedHashMap<>();
        new AccountExtractor(EVM).fromEvents(Nodes.events(events), out);
        assertEquals(
                Set.of(
                        a("0x4badfb501ab304ff11217c44702bb9e9732e7cf4"),
                        a("0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266"),
                        a("init17xpfvakm2amg962yls6f84z3kell8c5l70rnql"),
                        a("0x90F79bf6EB2c4f870365E785982E1f101E93b906")),
                out.keySet());
    }

    @Test
    @DisplayName(
            "Move event data: accounts and objects in their full or short printed forms (leading zero digits dropped), never short numbers")
    void moveData() {
        ChainConfig move = TestConfig.defaults().set("chain.vm", "move").build().chain();
        String account = "0x0b395c9f2e84f75b1686fcdc62f8cb62a572b782"; // a 20-byte account starting with a zero digit
        String object = "0x0e4733bdabcf7d4afc3d14f0dd46c9bf52fb0fce9e4b996c939e195b8bc891d9";
        JsonObject data = new JsonObject()
                .put("owner", "0x" + account.substring(3)) // printed short: 39 digits
                .put("store_addr", "0x" + object.substring(3)) // 63 digits
                .put("from", "0x" + "00".repeat(12) + "f39fd6e51aad88f6f4ce6ab8827279cfffb92266") // padded to 32 bytes
                .put("to", "0x90F79bf6EB2c4f870365E785982E1f101E93b906".toLowerCase())
                .put("metadata_addr", "0x1")
                .put("amount", "1000")
                .put("small", "0x" + "1".repeat(32))
                .put("nested", new JsonArray().add("init17xpfvakm2amg962yls6f84z3kell8c5l70rnql"));
        JsonArray events = new JsonArray()
                .add(new JsonObject()
                        .put("type", "move")
                        .put(
                                "attributes",
                                new JsonArray()
                                        .add(new JsonObject()
                                                .put("key", "type_tag")
                                                .put("value", "0x1::fungible_asset::DepositOwnerEvent"))
                                        .add(new JsonObject().put("key", "data").put("value", data.encode()))));
        Map<AccountAddress, Boolean> out = new LinkedHashMap<>();
        new AccountExtractor(move).fromEvents(Nodes.events(events), out);
        assertEquals(
                Set.of(
                        a(account),
                        AccountAddress.of(dev.weft.chain.Hex.decode(object)),
                        a("0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266"),
                        a("0x90F79bf6EB2c4f870365E785982E1f101E93b906"),
                        a("init17xpfvakm2amg962yls6f84z3kell8c5l70rnql")),
                out.keySet());
        assertEquals(20, out.keySet().iterator().next().length());
    }

    @Test
    @DisplayName(
            "Move: a deposit without its owner event involves its store's known owner (rollytics' fa_store); a paired or unknown store adds nothing more")
    void moveStoreOwners() {
        ChainConfig move = TestConfig.defaults().set("chain.vm", "move").build().chain();
        AccountAddress store = AccountAddress.of(dev.weft.chain.Hex.decode("77".repeat(32)));
        AccountAddress unknown = AccountAddress.of(dev.weft.chain.Hex.decode("78".repeat(32)));
        byte[] owner32 = new byte[32];
        java.util.Arrays.fill(owner32, 12, 32, (byte) 0x5a);
        JsonArray events = new JsonArray();
        for (AccountAddress s : java.util.List.of(store, unknown)) {
            events.add(new JsonObject()
                    .put("type", "move")
                    .put(
                            "attributes",
                            new JsonArray()
                                    .add(new JsonObject()
                                            .put("key", "type_tag")
                                            .put("value", "0x1::fungible_asset::DepositEvent"))
                                    .add(new JsonObject()
                                            .put("key", "data")
                                            .put(
                                                    "value",
                                                    new JsonObject()
                                                            .put("store_addr", s.hex())
                                                            .put("metadata_addr", "0x1")
                                                            .put("amount", "3")
                                                            .encode()))));
        }
        Map<AccountAddress, Boolean> out = new LinkedHashMap<>();
        new AccountExtractor(move)
                .fromStoreOwners(Nodes.events(events), Map.of(store, AccountAddress.of(owner32)), out);
        assertEquals(Map.of(a("0x" + "5a".repeat(20)), false), out);
    }

    @Test
    @DisplayName("Anvil receipts: from is the signer; to, contract, log addresses and address topics are involved")
    void receipts() {
        JsonArray anvil =
                new JsonObject(FixtureChain.readText("evm-anvil/anvil_block9_receipts.json")).getJsonArray("result");
        Map<AccountAddress, Boolean> r0 = new AccountExtractor(EVM)
                .fromReceipt(NodeJson.parse(anvil.getJsonObject(0).toBuffer()));
        assertEquals(true, r0.get(a("0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266")));
        assertEquals(false, r0.get(a("0xcf7ed3acca5a467e9e704c703e8d87f634fb0fc9"))); // to: the router
        assertEquals(false, r0.get(a("0x5fbdb2315678afecb367f032d93f642f64180aa3"))); // token log
        assertEquals(false, r0.get(a("0x90f79bf6eb2c4f870365e785982e1f101e93b906"))); // Transfer recipient topic
        assertEquals(false, r0.get(a("0xe7f1725e7734ce288f8367e1bb143e90bb3f0512"))); // NFT log
        JsonObject creation = new JsonObject(
                        FixtureChain.readText("evm-anvil/anvil_block1_receipts_contract_creation.json"))
                .getJsonArray("result")
                .getJsonObject(0);
        Map<AccountAddress, Boolean> c = new AccountExtractor(EVM).fromReceipt(NodeJson.parse(creation.toBuffer()));
        assertEquals(false, c.get(a(creation.getString("contractAddress"))));
    }

    static JsonObject ev(String type, String key, String value) {
        return new JsonObject()
                .put("type", type)
                .put(
                        "attributes",
                        new JsonArray()
                                .add(new JsonObject()
                                        .put("key", key)
                                        .put("value", value)
                                        .put("index", true)));
    }
}
