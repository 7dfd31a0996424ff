package dev.weft.nft;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.weft.chain.AccountAddress;
import dev.weft.chain.model.AbciEvent;
import dev.weft.model.nft.NftEvent;
import dev.weft.model.nft.NftFold;
import dev.weft.testsupport.FixtureChain;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The per-VM NFT parsers: real minievm/Anvil ERC-721 logs, and Move and cw721 events built from the event shapes the Move and cw721 NFT modules emit. */
class NftParsersTest {
    static AbciEvent event(String type, String... kv) {
        List<AbciEvent.Attribute> attrs = new ArrayList<>();
        for (int i = 0; i < kv.length; i += 2) attrs.add(new AbciEvent.Attribute(kv[i], kv[i + 1], true));
        return new AbciEvent(type, attrs);
    }

    /** A receipt log as minievm puts it in an {@code evm} event: {@code {"address","topics","data"}}. */
    static AbciEvent evmEvent(JsonObject log) {
        return event(
                "evm",
                "log",
                new JsonObject()
                        .put("address", log.getString("address"))
                        .put("topics", log.getJsonArray("topics"))
                        .put("data", log.getString("data"))
                        .encode());
    }

    static List<NftEvent> parse(NftParser p, AbciEvent... events) {
        List<NftEvent> out = new ArrayList<>();
        p.parse(3, List.of(events), out);
        return out;
    }

    static AccountAddress hex(String h) {
        return AccountAddress.parse(h, "init");
    }

    @Test
    @DisplayName(
            "ERC-721: a real minievm transferFrom and an Anvil mint; ERC-20 logs (3 topics) and other logs are not NFTs")
    void evm() {
        JsonObject transfer = FixtureChain.read("initia-minievm-tx-decoder-fixtures/erc721-transfer-from.json")
                .getJsonObject("mockErc721TransferFromPayload")
                .getJsonObject("txReceipt")
                .getJsonArray("logs")
                .getJsonObject(0);
        JsonObject mint = new JsonObject(FixtureChain.readText("evm-anvil/anvil_block6_receipts_erc721_mint.json"))
                .getJsonArray("result")
                .getJsonObject(0)
                .getJsonArray("logs")
                .getJsonObject(0);
        NftParser p = new EvmNftParser();
        assertEquals(
                List.of(NftEvent.transfer(
                        3,
                        hex("0x5d4376b62fa8ac16dfabe6a9861e11c33a48c677"),
                        "4561",
                        null,
                        hex("0x8f433715afa790ee2b35986de88da9aafdd0d2e3"))),
                parse(p, evmEvent(transfer)));
        assertEquals(
                List.of(NftEvent.mint(
                        3,
                        hex("0xe7f1725e7734ce288f8367e1bb143e90bb3f0512"),
                        "1",
                        null,
                        hex("0x70997970c51812dc3a010c7d01b50e0d17dc79c8"),
                        null)),
                parse(p, evmEvent(mint)));
        JsonObject burn = transfer.copy();
        burn.put(
                "topics",
                new JsonArray()
                        .add(transfer.getJsonArray("topics").getString(0))
                        .add(transfer.getJsonArray("topics").getString(1))
                        .add("0x" + "0".repeat(64))
                        .add(transfer.getJsonArray("topics").getString(3)));
        assertEquals(
                List.of(NftEvent.burn(3, hex("0x5d4376b62fa8ac16dfabe6a9861e11c33a48c677"), "4561", null)),
                parse(p, evmEvent(burn)));
        JsonObject bank = FixtureChain.read("initia-minievm-tx-decoder-fixtures/bank-evm.json")
                .getJsonObject("bankSendWithEvmLogTxResponse");
        List<AbciEvent> events = new ArrayList<>();
        for (Object o : bank.getJsonArray("events")) {
            JsonObject e = (JsonObject) o;
            List<String> kv = new ArrayList<>();
            for (Object a : e.getJsonArray("attributes")) {
                kv.add(((JsonObject) a).getString("key"));
                kv.add(((JsonObject) a).getString("value"));
            }
            events.add(event(e.getString("type"), kv.toArray(new String[0])));
        }
        assertEquals(List.of(), parse(p, events.toArray(new AbciEvent[0])), "ERC-20 Transfers of a bank send");
        JsonObject withData = transfer.copy().put("data", "0x" + "0".repeat(63) + "1");
        assertEquals(List.of(), parse(p, evmEvent(withData)), "4 topics but data: not ERC-721");
    }

    static AbciEvent move(String typeTag, JsonObject data) {
        return event("move", "type_tag", typeTag, "data", data.encode());
    }

    @Test
    @DisplayName(
            "Move: collection created, mint (token_id or index), any object transfer, URI mutation, burn; other modules and addresses ignored")
    void move() {
        String coll = "0x5f3c" + "ab".repeat(30);
        String nft = "0x9a" + "cd".repeat(31);
        String creator = "0x" + "0".repeat(24) + "11".repeat(20);
        NftParser p = new MoveNftParser();
        List<NftEvent> got = parse(
                p,
                move(
                        "0x1::collection::CreateCollectionEvent",
                        new JsonObject()
                                .put("collection", coll)
                                .put("creator", creator)
                                .put("name", "Initia Badges")),
                move(
                        "0x1::collection::MintEvent",
                        new JsonObject()
                                .put("collection", coll)
                                .put("token_id", "42")
                                .put("nft", nft)),
                move(
                        "0x0000000000000000000000000000000000000000000000000000000000000001::collection::MintEvent",
                        new JsonObject()
                                .put("collection", coll)
                                .put("index", "7")
                                .put("nft", "0x1")),
                move(
                        "0x1::object::TransferEvent",
                        new JsonObject().put("object", nft).put("from", creator).put("to", "0x" + "22".repeat(20))),
                move(
                        "0x1::nft::MutationEvent",
                        new JsonObject()
                                .put("nft", nft)
                                .put("mutated_field_name", "uri")
                                .put("old_value", "a")
                                .put("new_value", "ipfs://b")),
                move(
                        "0x1::nft::MutationEvent",
                        new JsonObject()
                                .put("nft", nft)
                                .put("mutated_field_name", "description")
                                .put("new_value", "x")),
                move(
                        "0x1::collection::BurnEvent",
                        new JsonObject()
                                .put("collection", coll)
                                .put("token_id", "42")
                                .put("nft", nft)),
                move(
                        "0x2::collection::MintEvent",
                        new JsonObject()
                                .put("collection", coll)
                                .put("token_id", "1")
                                .put("nft", nft)),
                move(
                        "0x1::collection::MintEvent",
                        new JsonObject()
                                .put("collection", "not hex")
                                .put("token_id", "1")
                                .put("nft", nft)),
                event("move", "type_tag", "0x1::collection::MintEvent", "data", "{not json"));
        AccountAddress c = AccountAddress.parse(coll, "init");
        AccountAddress o = AccountAddress.parse(nft, "init");
        byte[] one = new byte[32];
        one[31] = 1;
        assertEquals(
                List.of(
                        NftEvent.collection(
                                3, c, AccountAddress.parse("0x" + "11".repeat(20), "init"), "Initia Badges"),
                        NftEvent.mint(3, c, "42", o, null, null),
                        NftEvent.mint(3, c, "7", AccountAddress.of(one), null, null),
                        NftEvent.transfer(3, null, null, o, AccountAddress.parse("0x" + "22".repeat(20), "init")),
                        NftEvent.uri(3, o, "ipfs://b"),
                        NftEvent.burn(3, c, "42", o)),
                got);
        assertEquals(20, got.get(0).account().length(), "an account given in 32 bytes is stored in its 20-byte form");
        assertNull(MoveNftParser.stdlibEvent("0x2::collection::MintEvent"));
    }

    @Test
    @DisplayName(
            "cw721: instantiate names a collection; mint, transfer_nft, send_nft, burn; events of other modules or prefixes ignored")
    void wasm() {
        AccountAddress contract = AccountAddress.parse("0x" + "ab".repeat(32), "init");
        String ca = contract.bech32("init");
        AccountAddress alice = AccountAddress.parse("0x" + "a1".repeat(20), "init");
        AccountAddress bob = AccountAddress.parse("0x" + "b0".repeat(20), "init");
        NftParser p = new WasmNftParser("init");
        List<NftEvent> got = parse(
                p,
                event(
                        "wasm",
                        "_contract_address",
                        ca,
                        "action",
                        "instantiate",
                        "minter",
                        alice.bech32("init"),
                        "creator",
                        bob.bech32("init")),
                event(
                        "wasm",
                        "_contract_address",
                        ca,
                        "action",
                        "mint",
                        "minter",
                        alice.bech32("init"),
                        "owner",
                        alice.bech32("init"),
                        "token_id",
                        "t1",
                        "token_uri",
                        "ipfs://t1"),
                event(
                        "wasm",
                        "_contract_address",
                        ca,
                        "action",
                        "transfer_nft",
                        "sender",
                        alice.bech32("init"),
                        "recipient",
                        bob.bech32("init"),
                        "token_id",
                        "t1"),
                event(
                        "wasm",
                        "_contract_address",
                        ca,
                        "action",
                        "send_nft",
                        "sender",
                        bob.bech32("init"),
                        "recipient",
                        alice.bech32("init"),
                        "token_id",
                        "t1"),
                event(
                        "wasm",
                        "_contract_address",
                        ca,
                        "action",
                        "burn",
                        "sender",
                        alice.bech32("init"),
                        "token_id",
                        "t1"),
                event(
                        "wasm",
                        "_contract_address",
                        ca,
                        "action",
                        "approve",
                        "token_id",
                        "t1",
                        "spender",
                        bob.bech32("init")),
                event("wasm", "action", "mint", "owner", alice.bech32("init"), "token_id", "t2"),
                event("wasm", "_contract_address", contract.bech32("osmo"), "action", "burn", "token_id", "t1"),
                event("execute", "_contract_address", ca));
        assertEquals(
                List.of(
                        NftEvent.collection(3, contract, bob, null),
                        NftEvent.collection(3, contract, null, null),
                        NftEvent.mint(3, contract, "t1", null, alice, "ipfs://t1"),
                        NftEvent.transfer(3, contract, "t1", null, bob),
                        NftEvent.transfer(3, contract, "t1", null, alice),
                        NftEvent.burn(3, contract, "t1", null)),
                got);
    }

    @Test
    @DisplayName("names compare by their lower-case letters and digits")
    void normalise() {
        assertEquals("initiabadges2", NftFold.normalise("Initia  Badges #2!"));
        assertEquals("élan", NftFold.normalise("Élan"));
        assertEquals("weftkittens|origin", NftFold.search("Weft Kittens", "ORIGIN"));
    }
}
