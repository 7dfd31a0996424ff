package dev.weft.ingest;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.weft.chain.AccountAddress;
import dev.weft.chain.model.AbciEvent;
import dev.weft.chain.model.FungibleTransfer;
import dev.weft.testsupport.FixtureChain;
import io.vertx.core.json.JsonObject;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The transfer rows and bank denoms ingestion reads from a tx's events. */
class FungibleTransfersTest {
    static final String TOKEN = "0xe1ff7038eaaaf027031688e1535a055b2bac2546";
    static final String SENDER = "0xb395c9f2e84f75b1686fcdc62f8cb62a572b7820";
    static final String COLLECTOR = "0xf1829676db577682e944fc3493d451b67ff3e29f";

    static AccountAddress a(String hex) {
        return AccountAddress.parse(hex, "init");
    }

    /** The events of a tx response as {@code /block_results} hands them to the assembler. */
    static List<AbciEvent> events(JsonObject txResponse) {
        List<AbciEvent> out = new ArrayList<>();
        for (Object o : txResponse.getJsonArray("events")) {
            JsonObject e = (JsonObject) o;
            List<AbciEvent.Attribute> attrs = new ArrayList<>();
            for (Object x : e.getJsonArray("attributes")) {
                JsonObject at = (JsonObject) x;
                attrs.add(new AbciEvent.Attribute(
                        at.getString("key"), at.getString("value"), at.getBoolean("index", false)));
            }
            out.add(new AbciEvent(e.getString("type"), attrs));
        }
        return out;
    }

    @Test
    @DisplayName(
            "the recorded minievm bank send: the fee Transfer and the (self) send Transfer, the bank denom the coin events move")
    void recordedBankSend() {
        JsonObject tx = FixtureChain.read("initia-minievm-tx-decoder-fixtures/bank-evm.json")
                .getJsonObject("bankSendWithEvmLogTxResponse");
        List<FungibleTransfer> transfers = new ArrayList<>();
        Set<String> denoms = new LinkedHashSet<>();
        FungibleTransfers.read(events(tx), "init", transfers, denoms);
        assertEquals(
                List.of(
                        new FungibleTransfer(
                                FungibleTransfer.Kind.ERC20,
                                a(TOKEN),
                                a(SENDER),
                                a(COLLECTOR),
                                new BigInteger("c1df4c2ec0", 16)),
                        new FungibleTransfer(
                                FungibleTransfer.Kind.ERC20,
                                a(TOKEN),
                                a(SENDER),
                                a(SENDER),
                                new BigInteger("9184e72a000", 16))),
                transfers);
        assertEquals(Set.of("evm/E1Ff7038eAAAF027031688E1535a055B2Bac2546"), denoms);
    }

    @Test
    @DisplayName("coins texts: amounts then denoms, several per attribute, malformed pieces left out")
    void coins() {
        Set<String> denoms = new LinkedHashSet<>();
        FungibleTransfers.coins(
                "1500uinit, 20ibc/27A6394C3F9FF9C9DCF5DFFADF9BB5FE9A37C7E92B006199894CF1824DF9AC7C,x,5u", denoms);
        assertEquals(
                List.of("uinit", "ibc/27A6394C3F9FF9C9DCF5DFFADF9BB5FE9A37C7E92B006199894CF1824DF9AC7C"),
                List.copyOf(denoms));
    }

    @Test
    @DisplayName(
            "coins texts: the hand scanner finds exactly the denoms of the rule as a regex, on edge cases and random texts")
    void coinsMatchTheRegexRule() {
        java.util.regex.Pattern rule = java.util.regex.Pattern.compile("(\\d+)([a-zA-Z][a-zA-Z0-9/:._-]{2,127})");
        List<String> texts = new ArrayList<>(List.of(
                "",
                ",",
                ",,",
                " 1abc ",
                "\t7abc\n",
                "1ab",
                "12abc",
                "0uinit",
                "u1",
                "1\u0661abc",
                "5ibc/A-._:z",
                "1a" + "b".repeat(127),
                "1a" + "b".repeat(128),
                "1é" + "bc",
                "1abc é",
                "9Abc,9aBc,  ,9abc ,x9abc"));
        java.util.Random rnd = new java.util.Random(17);
        String alphabet = "09az AZ/:._-,é\t";
        for (int n = 0; n < 20_000; n++) {
            StringBuilder sb = new StringBuilder();
            int len = rnd.nextInt(12);
            for (int i = 0; i < len; i++) sb.append(alphabet.charAt(rnd.nextInt(alphabet.length())));
            texts.add(sb.toString());
        }
        for (String text : texts) {
            Set<String> expected = new LinkedHashSet<>();
            for (String piece : text.split(",")) {
                var m = rule.matcher(piece.trim());
                if (m.matches()) expected.add(m.group(2));
            }
            Set<String> actual = new LinkedHashSet<>();
            FungibleTransfers.coins(text, actual);
            assertEquals(List.copyOf(expected), List.copyOf(actual), text);
        }
    }

    static AbciEvent event(String type, String... kv) {
        List<AbciEvent.Attribute> attrs = new ArrayList<>();
        for (int i = 0; i < kv.length; i += 2) attrs.add(new AbciEvent.Attribute(kv[i], kv[i + 1], true));
        return new AbciEvent(type, attrs);
    }

    static List<FungibleTransfer> read(AbciEvent... events) {
        List<FungibleTransfer> out = new ArrayList<>();
        FungibleTransfers.read(List.of(events), "init", out, new LinkedHashSet<>());
        return out;
    }

    static final String STORE = "0x66a8cb0bfb991610dcffb8a6543ac0887c7c5405b8f985ebed6d628fe50c4686";
    static final String METADATA = "0x8e4733bdabcf7d4afc3d14f0dd46c9bf52fb0fce9e4b996c939e195b8bc891d9";
    static final AccountAddress ZERO = AccountAddress.of(new byte[20]);

    static AbciEvent fa(String kind, String amount) {
        return event(
                "move",
                "type_tag",
                "0x1::fungible_asset::" + kind + "Event",
                "data",
                new JsonObject()
                        .put("store_addr", STORE)
                        .put("metadata_addr", METADATA)
                        .put("amount", amount)
                        .encode());
    }

    static AbciEvent owner(String kind, String owner) {
        return event(
                "move",
                "type_tag",
                "0x1::fungible_asset::" + kind + "OwnerEvent",
                "data",
                new JsonObject().put("owner", owner).encode());
    }

    @Test
    @DisplayName(
            "Move: a deposit or withdrawal counts with the owner event right after it, not alone, not with the other kind's")
    void moveFungibleAsset() {
        assertEquals(
                List.of(
                        new FungibleTransfer(
                                FungibleTransfer.Kind.MOVE_FA,
                                a(METADATA),
                                ZERO,
                                a(COLLECTOR),
                                BigInteger.valueOf(3075)),
                        new FungibleTransfer(
                                FungibleTransfer.Kind.MOVE_FA, a(METADATA), a(COLLECTOR), ZERO, BigInteger.valueOf(5))),
                read(
                        fa("Deposit", "3075"),
                        owner("Deposit", COLLECTOR),
                        fa("Withdraw", "5"),
                        owner("Withdraw", COLLECTOR)));
        assertEquals(List.of(), read(fa("Deposit", "3075")));
        assertEquals(List.of(), read(fa("Deposit", "3075"), owner("Withdraw", COLLECTOR)));
        assertEquals(List.of(), read(fa("Deposit", "3075"), event("coin_received"), owner("Deposit", COLLECTOR)));
        assertEquals(List.of(), read(fa("Deposit", "0"), owner("Deposit", COLLECTOR)));
        assertEquals(List.of(), read(fa("Deposit", "-1"), owner("Deposit", COLLECTOR)));
        assertEquals(List.of(), read(fa("Deposit", "12"), owner("Deposit", "not an address")));
    }

    @Test
    @DisplayName(
            "Move without owner events: a store's known owner attributes it when it is the owner's primary store; a secondary store is left out")
    void moveStoreOwners() {
        byte[] owner = new byte[32];
        owner[31] = 0x42;
        String primary = dev.weft.chain.Hex.prefixed(
                dev.weft.chain.MoveStores.primaryStore(owner, a(METADATA).bytes()));
        AbciEvent created = event(
                "move",
                "type_tag",
                "0x1::primary_fungible_store::PrimaryStoreCreatedEvent",
                "data",
                new JsonObject()
                        .put("owner_addr", "0x42")
                        .put("store_addr", primary)
                        .put("metadata_addr", METADATA)
                        .encode());
        AbciEvent deposit = event(
                "move",
                "type_tag",
                "0x1::fungible_asset::DepositEvent",
                "data",
                new JsonObject()
                        .put("store_addr", primary)
                        .put("metadata_addr", METADATA)
                        .put("amount", "9")
                        .encode());
        java.util.Map<AccountAddress, AccountAddress> created0 = new java.util.LinkedHashMap<>();
        Set<AccountAddress> unpaired = new LinkedHashSet<>();
        // the block names the store's owner itself; the secondary store (STORE) needs one; a paired movement does not
        FungibleTransfers.storeOwnersNeeded(
                List.of(created, deposit, fa("Deposit", "1"), fa("Withdraw", "2"), owner("Withdraw", COLLECTOR)),
                "init",
                created0,
                unpaired);
        AccountAddress ownerKey = AccountAddress.of(owner);
        assertEquals(java.util.Map.of(AccountAddress.of(dev.weft.chain.Hex.decode(primary)), ownerKey), created0);
        assertEquals(Set.of(a(STORE)), unpaired);
        java.util.Map<AccountAddress, AccountAddress> owners = new java.util.LinkedHashMap<>(created0);
        owners.put(a(STORE), ownerKey); // owned by the same account, but not its primary store
        List<FungibleTransfer> out = new ArrayList<>();
        FungibleTransfers.read(List.of(deposit, fa("Deposit", "1")), "init", owners, out, new LinkedHashSet<>());
        byte[] twenty = new byte[20];
        twenty[19] = 0x42;
        assertEquals(
                List.of(new FungibleTransfer(
                        FungibleTransfer.Kind.MOVE_FA,
                        a(METADATA),
                        ZERO,
                        AccountAddress.of(twenty),
                        BigInteger.valueOf(9))),
                out);
    }

    @Test
    @DisplayName("CW20: the movements of cw20-base's actions, bech32 accounts; other actions and bad amounts left out")
    void cw20() {
        byte[] c = new byte[32];
        c[31] = 9;
        String contract = AccountAddress.of(c).bech32("init");
        String from = a(SENDER).bech32("init");
        String to = a(COLLECTOR).bech32("init");
        BigInteger seven = BigInteger.valueOf(7);
        assertEquals(
                List.of(
                        new FungibleTransfer(
                                FungibleTransfer.Kind.CW20, AccountAddress.of(c), a(SENDER), a(COLLECTOR), seven),
                        new FungibleTransfer(
                                FungibleTransfer.Kind.CW20, AccountAddress.of(c), a(SENDER), a(COLLECTOR), seven),
                        new FungibleTransfer(
                                FungibleTransfer.Kind.CW20, AccountAddress.of(c), ZERO, a(COLLECTOR), seven),
                        new FungibleTransfer(FungibleTransfer.Kind.CW20, AccountAddress.of(c), a(SENDER), ZERO, seven)),
                read(
                        event(
                                "wasm",
                                "_contract_address",
                                contract,
                                "action",
                                "transfer_from",
                                "from",
                                from,
                                "to",
                                to,
                                "by",
                                to,
                                "amount",
                                "7"),
                        event(
                                "wasm",
                                "_contract_address",
                                contract,
                                "action",
                                "send",
                                "from",
                                from,
                                "to",
                                to,
                                "amount",
                                "7",
                                "msg",
                                "e30="),
                        event("wasm", "_contract_address", contract, "action", "mint", "to", to, "amount", "7"),
                        event("wasm", "_contract_address", contract, "action", "burn", "from", from, "amount", "7"),
                        event(
                                "wasm",
                                "_contract_address",
                                contract,
                                "action",
                                "increase_allowance",
                                "owner",
                                from,
                                "spender",
                                to,
                                "amount",
                                "7"),
                        event(
                                "wasm",
                                "_contract_address",
                                contract,
                                "action",
                                "transfer",
                                "from",
                                from,
                                "to",
                                to,
                                "amount",
                                "7.5"),
                        event("wasm", "_contract_address", contract, "action", "transfer", "from", from, "amount", "7"),
                        event("wasm", "action", "transfer", "from", from, "to", to, "amount", "7")));
    }
}
