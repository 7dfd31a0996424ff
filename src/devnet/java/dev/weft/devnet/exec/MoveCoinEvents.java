package dev.weft.devnet.exec;

import dev.weft.chain.AccountAddress;
import dev.weft.chain.Hex;
import dev.weft.chain.MoveStores;
import dev.weft.devnet.registry.ChainDenoms;
import io.vertx.core.json.JsonObject;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The Move side of coin movements on a Move chain (Initia L1, minimove), emitted before the bank module's own events as
 * Initia's {@code MoveBankKeeper} runs them: every coin is a fungible asset of {@code 0x1::coin}, held in each
 * account's primary store. A send executes {@code 0x1::coin::sudo_transfer} (an {@code execute} event, then the
 * {@code move} events: a new primary store's {@code 0x1::object::CreateEvent} and
 * {@code 0x1::primary_fungible_store::PrimaryStoreCreatedEvent}, then {@code WithdrawEvent}, {@code WithdrawOwnerEvent},
 * {@code DepositEvent}, {@code DepositOwnerEvent}); a mint {@code 0x1::managed_coin::sudo_mint} ({@code MintEvent} then
 * the deposit); a burn sends to {@code 0x1} and runs {@code 0x1::managed_coin::burn} (the withdrawal, then
 * {@code BurnEvent}). Sources: initia-labs/initia {@code x/move/keeper/bank.go}, {@code x/move/types/events.go};
 * initia-labs/movevm {@code fungible_asset.move}, {@code primary_fungible_store.move}, {@code object.move}.
 *
 * <p>A {@code move} event is {@code type_tag}, {@code data} (the event as JSON: fields in declaration order, addresses
 * {@code 0x} + hex without leading zeros, u64 as strings), then each scalar field again as its own attribute, keys sorted.
 */
public final class MoveCoinEvents {
    private static final Pattern COIN = Pattern.compile("(\\d+)([a-zA-Z][a-zA-Z0-9/:._-]{2,127})");
    private static final byte[] STD = leftPad(new byte[] {1});
    private static final String FA = "0x1::fungible_asset::";

    private final String prefix;
    private final boolean ownerEvents;
    /** The primary stores that exist (store hex → owner): created at genesis or by an earlier movement. */
    private final Map<String, byte[]> stores = new ConcurrentHashMap<>();

    /**
     * @param ownerEvents whether deposits and withdrawals are followed by their owner events (movevm since mid-2025,
     *                    initia-labs/movevm#218); false emits what older chains emit
     */
    public MoveCoinEvents(String prefix, boolean ownerEvents) {
        this.prefix = prefix;
        this.ownerEvents = ownerEvents;
    }

    /** A primary store holding a genesis balance (genesis emits no events). */
    public void genesis(String account, String denom) {
        byte[] owner = moveAddress(account);
        stores.putIfAbsent(Hex.lower(primaryStore(owner, ChainDenoms.moveMetadata(denom))), owner);
    }

    /** The 32-byte owner of a primary store that exists, or null. */
    public byte[] ownerOf(byte[] store) {
        return stores.get(Hex.lower(store));
    }

    private static byte[] primaryStore(byte[] owner, byte[] metadata) {
        return MoveStores.primaryStore(owner, metadata);
    }

    /** {@code 0x1::coin::sudo_transfer} of each coin of {@code coins} (the SDK's coins text). */
    void send(EventLog log, String from, String to, String coins) {
        byte[] sender = moveAddress(from);
        byte[] recipient = moveAddress(to);
        for (Coin c : coins(coins)) {
            log.add(
                    "execute",
                    "sender",
                    "0x1," + literal(sender),
                    "module_addr",
                    "0x1",
                    "module_name",
                    "coin",
                    "function_name",
                    "sudo_transfer");
            ensureStore(log, sender, c.metadata);
            ensureStore(log, recipient, c.metadata);
            withdraw(log, sender, c);
            deposit(log, recipient, c);
        }
    }

    /**
     * A user's {@code MsgExecute} of a coin transfer ({@code 0x1::<module>::<function>}, e.g. {@code coin::transfer} or
     * {@code primary_fungible_store::transfer}): the {@code execute} event with the signer as sender, then the
     * stores' creation, the withdrawal and the deposit. No bank event: on a Move chain the Move VM moves the coin.
     */
    void userTransfer(EventLog log, String module, String function, String from, String to, String coin) {
        byte[] sender = moveAddress(from);
        byte[] recipient = moveAddress(to);
        log.add(
                "execute",
                "sender",
                literal(sender),
                "module_addr",
                "0x1",
                "module_name",
                module,
                "function_name",
                function);
        for (Coin c : coins(coin)) {
            ensureStore(log, sender, c.metadata);
            ensureStore(log, recipient, c.metadata);
            withdraw(log, sender, c);
            deposit(log, recipient, c);
        }
    }

    /** {@code 0x1::managed_coin::sudo_mint} of each coin to {@code to}. */
    void mint(EventLog log, String to, String coins) {
        byte[] recipient = moveAddress(to);
        for (Coin c : coins(coins)) {
            log.add(
                    "execute",
                    "sender",
                    "0x1",
                    "module_addr",
                    "0x1",
                    "module_name",
                    "managed_coin",
                    "function_name",
                    "sudo_mint");
            move(
                    log,
                    FA + "MintEvent",
                    new JsonObject().put("metadata_addr", literal(c.metadata)).put("amount", c.amount.toString()));
            ensureStore(log, recipient, c.metadata);
            deposit(log, recipient, c);
        }
    }

    /** A module's burn: each coin sent to {@code 0x1}, then {@code 0x1::managed_coin::burn}. */
    void burn(EventLog log, String module, String coins) {
        byte[] holder = moveAddress(module);
        for (Coin c : coins(coins)) {
            log.add(
                    "execute",
                    "sender",
                    "0x1," + literal(holder),
                    "module_addr",
                    "0x1",
                    "module_name",
                    "coin",
                    "function_name",
                    "sudo_transfer");
            ensureStore(log, holder, c.metadata);
            ensureStore(log, STD, c.metadata);
            withdraw(log, holder, c);
            deposit(log, STD, c);
            log.add(
                    "execute",
                    "sender",
                    "0x1",
                    "module_addr",
                    "0x1",
                    "module_name",
                    "managed_coin",
                    "function_name",
                    "burn");
            withdraw(log, STD, c);
            move(
                    log,
                    FA + "BurnEvent",
                    new JsonObject().put("metadata_addr", literal(c.metadata)).put("amount", c.amount.toString()));
        }
    }

    private void ensureStore(EventLog log, byte[] owner, byte[] metadata) {
        byte[] address = primaryStore(owner, metadata);
        if (stores.putIfAbsent(Hex.lower(address), owner) != null) return;
        String store = literal(address);
        move(
                log,
                "0x1::object::CreateEvent",
                new JsonObject()
                        .put("object", store)
                        .put("owner", literal(owner))
                        .put("version", "1"));
        move(
                log,
                "0x1::primary_fungible_store::PrimaryStoreCreatedEvent",
                new JsonObject()
                        .put("owner_addr", literal(owner))
                        .put("store_addr", store)
                        .put("metadata_addr", literal(metadata)));
    }

    private void withdraw(EventLog log, byte[] owner, Coin c) {
        movement(log, "Withdraw", owner, c);
    }

    private void deposit(EventLog log, byte[] owner, Coin c) {
        movement(log, "Deposit", owner, c);
    }

    private void movement(EventLog log, String kind, byte[] owner, Coin c) {
        move(
                log,
                FA + kind + "Event",
                new JsonObject()
                        .put("store_addr", literal(primaryStore(owner, c.metadata)))
                        .put("metadata_addr", literal(c.metadata))
                        .put("amount", c.amount.toString()));
        if (ownerEvents) move(log, FA + kind + "OwnerEvent", new JsonObject().put("owner", literal(owner)));
    }

    /** A {@code move} event: type tag, JSON data, then the scalar fields by key. */
    static void move(EventLog log, String typeTag, JsonObject data) {
        Map<String, Object> sorted = new TreeMap<>(data.getMap());
        List<String> kv = new ArrayList<>(4 + 2 * sorted.size());
        kv.add("type_tag");
        kv.add(typeTag);
        kv.add("data");
        kv.add(data.encode());
        sorted.forEach((k, v) -> {
            kv.add(k);
            kv.add(String.valueOf(v));
        });
        log.add("move", kv.toArray(String[]::new));
    }

    /** Move's address literal: {@code 0x} and the hex without leading zeros ({@code 0x1}). */
    public static String literal(byte[] address) {
        String h = Hex.lower(address).replaceFirst("^0+", "");
        return "0x" + (h.isEmpty() ? "0" : h);
    }

    /** The 32-byte Move address of an account (bech32 of this chain, left-padded). */
    byte[] moveAddress(String account) {
        return leftPad(AccountAddress.parse(account, prefix).bytes());
    }

    private static byte[] leftPad(byte[] b) {
        return MoveStores.leftPad32(b);
    }

    private record Coin(BigInteger amount, byte[] metadata) {}

    private static List<Coin> coins(String text) {
        List<Coin> out = new ArrayList<>();
        for (String piece : text.split(",")) {
            Matcher m = COIN.matcher(piece.trim());
            if (m.matches()) out.add(new Coin(new BigInteger(m.group(1)), ChainDenoms.moveMetadata(m.group(2))));
        }
        return out;
    }
}
