package dev.weft.ingest;

import dev.weft.chain.AccountAddress;
import dev.weft.chain.MoveStores;
import dev.weft.chain.model.AbciEvent;
import dev.weft.chain.model.EvmLog;
import dev.weft.chain.model.FungibleTransfer;
import io.vertx.core.json.JsonObject;
import java.math.BigInteger;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * What the rich list needs from a tx's events, read once at ingestion: the ERC-20 Transfer logs of its {@code evm}
 * events (topic0 = Transfer, exactly 3 topics, a non-zero amount in data), Move fungible-asset deposits and withdrawals,
 * CW20 movements, and the bank denoms its coin events move (so they can be mapped to their ERC-20 once). Failed txs
 * count too: their ante events (the fee) did happen.
 *
 * <p>Move: a {@code 0x1::fungible_asset::DepositEvent} ({@code store_addr, metadata_addr, amount}) immediately followed
 * by a {@code DepositOwnerEvent} ({@code owner}) adds to the owner; {@code WithdrawEvent} + {@code WithdrawOwnerEvent}
 * subtracts. Initia's movevm emits the owner event after every primary-store movement (since initia-labs/movevm#218),
 * and initia-labs' rich-list indexers read exactly these pairs. A movement without its owner event (an older movevm, or
 * a secondary store) is attributed through the store's owner when it is known ({@link #storeOwnersNeeded}: a
 * {@code PrimaryStoreCreatedEvent}, or the chain) and the store is that owner's primary store for the asset; a
 * secondary store (a pool's, an object's) is not counted, as on chains that emit owner events.
 *
 * <p>CosmWasm: a {@code wasm} event of a cw20-base contract ({@code _contract_address}) with {@code action}
 * {@code transfer}/{@code send}/{@code transfer_from}/{@code send_from} ({@code from}, {@code to}), {@code mint}
 * ({@code to}) or {@code burn}/{@code burn_from} ({@code from}) and an {@code amount}.
 */
public final class FungibleTransfers {
    /** Cosmos SDK coin: an amount then a denom ({@code [a-zA-Z][a-zA-Z0-9/:._-]{2,127}}). */
    private static final Set<String> COIN_EVENTS =
            Set.of("coin_spent", "coin_received", "transfer", "coinbase", "burn", "tx");

    private static final String FA = "0x1::fungible_asset::";
    private static final String CREATED_STORE = "0x1::primary_fungible_store::PrimaryStoreCreatedEvent";
    private static final Set<String> CW20_ACTIONS =
            Set.of("transfer", "send", "transfer_from", "send_from", "mint", "burn", "burn_from");
    private static final Pattern DECIMAL = Pattern.compile("[0-9]{1,78}");
    private static final AccountAddress ZERO = AccountAddress.of(new byte[20]);

    private FungibleTransfers() {}

    /** Appends the transfers and bank denoms of one tx's events ({@code bech32Prefix}: the chain's, for CW20 accounts). */
    public static void read(
            List<AbciEvent> events, String bech32Prefix, List<FungibleTransfer> transfers, Set<String> denoms) {
        read(events, bech32Prefix, Map.of(), transfers, denoms);
    }

    /**
     * As {@link #read(List, String, List, Set)}, a Move movement without its owner event attributed through
     * {@code storeOwners} (32-byte store → owner).
     */
    public static void read(
            List<AbciEvent> events,
            String bech32Prefix,
            Map<AccountAddress, AccountAddress> storeOwners,
            List<FungibleTransfer> transfers,
            Set<String> denoms) {
        for (int i = 0; i < events.size(); i++) {
            AbciEvent e = events.get(i);
            if (e.type().equals("move")) {
                AbciEvent next = i + 1 < events.size() ? events.get(i + 1) : null;
                if (moveMovement(e, next, bech32Prefix, storeOwners, transfers)) i++;
            } else if (e.type().equals("wasm")) {
                cw20(e, bech32Prefix, transfers);
            } else if (e.type().equals("evm")) {
                for (AbciEvent.Attribute a : e.attributes()) {
                    if (a.key().equals("log") && a.value() != null && EvmLog.mayBeTransfer(a.value()))
                        transfer(a.evmLog(), transfers);
                }
            } else if (COIN_EVENTS.contains(e.type())) {
                for (AbciEvent.Attribute a : e.attributes()) {
                    if ((a.key().equals("amount") || a.key().equals("fee")) && a.value() != null)
                        coins(a.value(), denoms);
                }
            }
        }
    }

    private static void transfer(EvmLog log, List<FungibleTransfer> out) {
        if (log == null || !log.isErc20Transfer()) return;
        AccountAddress token = log.contract();
        AccountAddress from = log.topicAddress(1);
        AccountAddress to = log.topicAddress(2);
        BigInteger amount = log.dataUint();
        if (token == null || from == null || to == null || amount == null || amount.signum() == 0) return;
        out.add(new FungibleTransfer(FungibleTransfer.Kind.ERC20, token, from, to, amount));
    }

    /**
     * The Move stores whose owner a block's movements need: {@code created} gets the pairs its
     * {@code PrimaryStoreCreatedEvent}s name (store → owner), {@code unpaired} the stores of its deposits and withdrawals
     * without an owner event that no such event of the block names.
     */
    public static void storeOwnersNeeded(
            List<AbciEvent> events,
            String bech32Prefix,
            Map<AccountAddress, AccountAddress> created,
            Set<AccountAddress> unpaired) {
        for (int i = 0; i < events.size(); i++) {
            AbciEvent e = events.get(i);
            if (!e.type().equals("move")) continue;
            String tag = attribute(e, "type_tag");
            if (CREATED_STORE.equals(tag)) {
                JsonObject data = json(attribute(e, "data"));
                AccountAddress store = data == null ? null : store(address(data.getValue("store_addr"), bech32Prefix));
                AccountAddress owner = data == null ? null : store(address(data.getValue("owner_addr"), bech32Prefix));
                if (store != null && owner != null) created.put(store, owner);
                continue;
            }
            boolean deposit = (FA + "DepositEvent").equals(tag);
            if (!deposit && !(FA + "WithdrawEvent").equals(tag)) continue;
            AbciEvent next = i + 1 < events.size() ? events.get(i + 1) : null;
            if (ownerEvent(next, deposit)) {
                i++;
                continue;
            }
            JsonObject data = json(attribute(e, "data"));
            AccountAddress store = data == null ? null : store(address(data.getValue("store_addr"), bech32Prefix));
            if (store != null && !created.containsKey(store)) unpaired.add(store);
        }
    }

    private static boolean ownerEvent(AbciEvent next, boolean deposit) {
        return next != null
                && next.type().equals("move")
                && (FA + (deposit ? "DepositOwnerEvent" : "WithdrawOwnerEvent")).equals(attribute(next, "type_tag"));
    }

    /**
     * A fungible-asset deposit or withdrawal, with the owner event after it (then true: both were read) or attributed
     * through the store's known owner when it is that owner's primary store.
     */
    private static boolean moveMovement(
            AbciEvent event,
            AbciEvent next,
            String bech32Prefix,
            Map<AccountAddress, AccountAddress> storeOwners,
            List<FungibleTransfer> out) {
        String tag = attribute(event, "type_tag");
        boolean deposit = (FA + "DepositEvent").equals(tag);
        if (!deposit && !(FA + "WithdrawEvent").equals(tag)) return false;
        JsonObject data = json(attribute(event, "data"));
        if (data == null) return false;
        AccountAddress metadata = address(data.getValue("metadata_addr"), bech32Prefix);
        BigInteger amount = amount(data.getValue("amount"));
        boolean paired = ownerEvent(next, deposit);
        AccountAddress owner;
        if (paired) {
            JsonObject o = json(attribute(next, "data"));
            owner = o == null ? null : address(o.getValue("owner"), bech32Prefix);
        } else {
            AccountAddress store = store(address(data.getValue("store_addr"), bech32Prefix));
            owner = store == null || metadata == null ? null : storeOwners.get(store);
            if (owner != null
                    && !Arrays.equals(MoveStores.primaryStore(owner.bytes(), metadata.bytes()), store.bytes()))
                owner = null;
        }
        AccountAddress account = moveAccount(owner);
        if (metadata != null && account != null && amount != null) {
            out.add(new FungibleTransfer(
                    FungibleTransfer.Kind.MOVE_FA,
                    metadata,
                    deposit ? ZERO : account,
                    deposit ? account : ZERO,
                    amount));
        }
        return paired;
    }

    /** A Move object or account address as its 32 bytes. */
    private static AccountAddress store(AccountAddress a) {
        return a == null ? null : AccountAddress.of(MoveStores.leftPad32(a.bytes()));
    }

    private static void cw20(AbciEvent e, String bech32Prefix, List<FungibleTransfer> out) {
        String action = attribute(e, "action");
        if (action == null || !CW20_ACTIONS.contains(action)) return;
        boolean from = !action.equals("mint");
        boolean to = !action.startsWith("burn");
        AccountAddress contract = address(attribute(e, "_contract_address"), bech32Prefix);
        AccountAddress sender = from ? address(attribute(e, "from"), bech32Prefix) : ZERO;
        AccountAddress recipient = to ? address(attribute(e, "to"), bech32Prefix) : ZERO;
        BigInteger amount = amount(attribute(e, "amount"));
        if (contract == null || sender == null || recipient == null || amount == null) return;
        out.add(new FungibleTransfer(FungibleTransfer.Kind.CW20, contract, sender, recipient, amount));
    }

    /** The last value of an attribute (null when absent). */
    private static String attribute(AbciEvent e, String key) {
        String v = null;
        for (AbciEvent.Attribute a : e.attributes()) if (a.key().equals(key)) v = a.value();
        return v;
    }

    private static JsonObject json(String s) {
        if (s == null) return null;
        try {
            return new JsonObject(s);
        } catch (RuntimeException ex) {
            return null;
        }
    }

    private static AccountAddress address(Object v, String bech32Prefix) {
        if (!(v instanceof String s) || bech32Prefix == null) return null;
        try {
            return AccountAddress.parse(s, bech32Prefix.isEmpty() ? "\0" : bech32Prefix);
        } catch (RuntimeException ex) {
            return null;
        }
    }

    /** A Move account in the 20-byte form of the chain's accounts when its 32 bytes are 12 zero bytes and 20 more. */
    private static AccountAddress moveAccount(AccountAddress a) {
        if (a == null || a.length() != 32) return a;
        byte[] b = a.bytes();
        for (int i = 0; i < 12; i++) if (b[i] != 0) return a;
        return AccountAddress.of(Arrays.copyOfRange(b, 12, 32));
    }

    /** A positive integer amount (a decimal string or a JSON number), else null. */
    private static BigInteger amount(Object v) {
        if (v == null) return null;
        String s = v.toString();
        if (!DECIMAL.matcher(s).matches()) return null;
        BigInteger a = new BigInteger(s);
        return a.signum() > 0 ? a : null;
    }

    /**
     * The denoms of a coins text such as {@code 1500uinit,20ibc/27A6…}: each comma-separated piece that is digits then a
     * denom (a letter, then 2 to 127 of letters, digits and {@code /:._-}). Scanned by hand: every coin event of every tx
     * goes through here, and the equivalent regex took about a fifth of ingestion's CPU in a profile.
     */
    static void coins(String text, Set<String> denoms) {
        int from = 0;
        while (from <= text.length()) {
            int comma = text.indexOf(',', from);
            int to = comma < 0 ? text.length() : comma;
            String denom = denom(text, from, to);
            if (denom != null) denoms.add(denom);
            from = to + 1;
        }
    }

    /** The denom of the piece {@code [from, to)} of a coins text (blanks around it ignored), or null when it is not a coin. */
    private static String denom(String t, int from, int to) {
        while (from < to && t.charAt(from) <= ' ') from++;
        while (to > from && t.charAt(to - 1) <= ' ') to--;
        int i = from;
        while (i < to && t.charAt(i) >= '0' && t.charAt(i) <= '9') i++;
        int length = to - i;
        if (i == from || length < 3 || length > 128 || !asciiLetter(t.charAt(i))) return null;
        for (int j = i + 1; j < to; j++) {
            char c = t.charAt(j);
            if (!asciiLetter(c) && !(c >= '0' && c <= '9') && c != '/' && c != ':' && c != '.' && c != '_' && c != '-')
                return null;
        }
        return t.substring(i, to);
    }

    private static boolean asciiLetter(char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
    }
}
