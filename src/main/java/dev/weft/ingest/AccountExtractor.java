package dev.weft.ingest;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import dev.weft.chain.AccountAddress;
import dev.weft.chain.Bech32;
import dev.weft.chain.Hex;
import dev.weft.chain.model.AbciEvent;
import dev.weft.chain.model.BlockReceipt;
import dev.weft.chain.model.EvmLog;
import dev.weft.chain.model.NodeJson;
import dev.weft.config.ChainConfig;
import dev.weft.model.nft.NftAddresses;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The accounts a tx involves, for {@code by_account}. From event attributes: values (or
 * comma-separated pieces) that are entirely a bech32 address of the chain's prefix or a 0x + 40 hex address (0x + 64
 * hex too on Move chains, where objects have 32 bytes); from {@code evm} events' {@code log}: the log address and the
 * address-shaped topics after topic0. Never EVM call return values ({@code call}/{@code ret}, rollytics#109), never the
 * zero address, and not small numbers that merely look like padded addresses (token ids, amounts: values below 2^32).
 * Thread-safe; assembly runs on worker threads.
 */
public final class AccountExtractor {
    private static final int CACHE_LIMIT = 200_000;

    private final String prefix;
    private final String bech32Start;
    private final boolean move;
    /** Addresses by their text (bech32, hex, padded topic): the same few thousand accounts recur in every block. */
    private final Map<String, AccountAddress> cache = new ConcurrentHashMap<>();

    public AccountExtractor(ChainConfig chain) {
        this.prefix = chain.bech32Prefix();
        this.bech32Start = prefix + "1";
        this.move = chain.vm() == ChainConfig.Vm.MOVE;
    }

    /** The chain's bech32 account prefix. */
    String prefix() {
        return prefix;
    }

    /** Adds the accounts of a tx's events to {@code out} (signer flags already present are kept). */
    public void fromEvents(List<AbciEvent> events, Map<AccountAddress, Boolean> out) {
        for (AbciEvent e : events) {
            String type = e.type();
            for (AbciEvent.Attribute a : e.attributes()) {
                String key = a.key();
                String value = a.value();
                if (value.isEmpty()) continue;
                if (type.equals("call") && key.equals("ret")) continue;
                if (type.equals("evm") && key.equals("log")) {
                    EvmLog log = a.evmLog();
                    if (log != null) fromLog(log.address(), log.topics(), out);
                    else fromLogJson(value, out);
                } else if (type.equals("move") && key.equals("data") && move) {
                    fromMoveData(value, out);
                } else {
                    fromValue(value, out);
                }
            }
        }
    }

    /**
     * Adds the owners of the Move fungible stores a tx's deposits and withdrawals name without their owner event (as
     * rollytics adds its {@code fa_store} owners): {@code owners} maps 32-byte stores to 32-byte owners.
     */
    public void fromStoreOwners(
            List<AbciEvent> events, Map<AccountAddress, AccountAddress> owners, Map<AccountAddress, Boolean> out) {
        if (owners.isEmpty()) return;
        Map<AccountAddress, AccountAddress> created = new LinkedHashMap<>();
        java.util.Set<AccountAddress> unpaired = new java.util.LinkedHashSet<>();
        FungibleTransfers.storeOwnersNeeded(events, prefix, created, unpaired);
        unpaired.addAll(created.keySet());
        for (AccountAddress store : unpaired) {
            AccountAddress owner = owners.get(store);
            if (owner == null) continue;
            byte[] b = owner.bytes();
            add(
                    out,
                    b.length == 32 && leadingZeros(b) >= 12
                            ? AccountAddress.of(java.util.Arrays.copyOfRange(b, 12, 32))
                            : owner);
        }
    }

    /** Accounts of an EVM receipt: from (the signer), to, contractAddress, log addresses and address-shaped topics. */
    public Map<AccountAddress, Boolean> fromReceipt(JsonNode receipt) {
        Map<AccountAddress, Boolean> out = new LinkedHashMap<>();
        AccountAddress from = hex(NodeJson.text(receipt, "from", null));
        if (from != null) out.put(from, true);
        add(out, hex(NodeJson.text(receipt, "to", null)));
        add(out, hex(NodeJson.text(receipt, "contractAddress", null)));
        for (JsonNode l : NodeJson.array(receipt, "logs")) fromLog(l, out);
        return out;
    }

    /** The same accounts from a receipt read without a tree ({@link BlockReceipt#verbatim()}), in the same order. */
    public Map<AccountAddress, Boolean> fromReceipt(BlockReceipt receipt) {
        Map<AccountAddress, Boolean> out = new LinkedHashMap<>();
        AccountAddress from = hex(receipt.from());
        if (from != null) out.put(from, true);
        add(out, hex(receipt.to()));
        add(out, hex(receipt.contractAddress()));
        for (BlockReceipt.Log l : receipt.logs()) fromLog(l.address(), l.topics(), out);
        return out;
    }

    /** A log already read (an {@code evm} event's, a receipt's): its address, then the address-shaped topics after topic0. */
    private void fromLog(String address, List<String> topics, Map<AccountAddress, Boolean> out) {
        add(out, hex(address));
        for (int i = 1; i < topics.size(); i++) add(out, topic(topics.get(i)));
    }

    /** An {@code evm} event's {@code log} JSON that {@link EvmLog#parse} refuses ({@code {"address","topics","data"}}), read without building a tree. */
    private void fromLogJson(String json, Map<AccountAddress, Boolean> out) {
        try (JsonParser p = NodeJson.FACTORY.createParser(json)) {
            if (p.nextToken() != JsonToken.START_OBJECT) return;
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String f = p.currentName();
                JsonToken t = p.nextToken();
                if (f.equals("address")) {
                    add(out, hex(p.getValueAsString()));
                } else if (f.equals("topics") && t == JsonToken.START_ARRAY) {
                    int i = 0;
                    while (p.nextToken() == JsonToken.VALUE_STRING) {
                        if (i++ > 0) add(out, topic(p.getText()));
                    }
                } else {
                    p.skipChildren();
                }
            }
        } catch (java.io.IOException | RuntimeException e) {
            // not a log: nothing to take from it
        }
    }

    private static JsonNode parseOrNull(String json) {
        try {
            return NodeJson.parse(json.getBytes(java.nio.charset.StandardCharsets.UTF_8));
        } catch (RuntimeException e) {
            return null;
        }
    }

    private void fromLog(JsonNode log, Map<AccountAddress, Boolean> out) {
        add(out, hex(NodeJson.text(log, "address", null)));
        int i = 0;
        for (JsonNode t : NodeJson.array(log, "topics")) {
            if (i++ == 0) continue;
            add(out, topic(t.asText("")));
        }
    }

    private void fromMoveData(String json, Map<AccountAddress, Boolean> out) {
        JsonNode data = parseOrNull(json);
        if (data != null) walkStrings(data, out);
    }

    private void walkStrings(JsonNode n, Map<AccountAddress, Boolean> out) {
        if (n.isTextual()) fromMoveString(n.textValue(), out);
        else if (n.isContainerNode()) for (JsonNode c : n) walkStrings(c, out);
    }

    /**
     * A string of a Move event's data. Move may print an address without its leading zeros ({@code 0x1}), so an account
     * whose address starts with a zero digit has fewer than 40 digits and an object fewer than 64 (rollytics takes every
     * {@code 0x…} of the data): 0x + 33..64 hex digits is an address (20-byte accounts in their 20-byte form, as
     * ingestion stores them); shorter values are the standard library's addresses or small numbers, never an account.
     */
    private void fromMoveString(String s, Map<AccountAddress, Boolean> out) {
        int digits = s.length() - 2;
        if (digits >= MIN_MOVE_ADDRESS_DIGITS && digits <= 64 && s.startsWith("0x") && Hex.isDigits(s, 2)) {
            add(out, cached(s, NftAddresses::account));
        } else {
            fromPiece(s, out);
        }
    }

    /** An account printed short has at most 7 leading zero digits dropped (one in 4 billion has more). */
    private static final int MIN_MOVE_ADDRESS_DIGITS = 33;

    private void fromValue(String value, Map<AccountAddress, Boolean> out) {
        if (value.indexOf(',') < 0) {
            fromPiece(value, out);
            return;
        }
        for (String piece : value.split(",")) fromPiece(piece.trim(), out);
    }

    private void fromPiece(String s, Map<AccountAddress, Boolean> out) {
        if (s.startsWith(bech32Start)) {
            add(out, bech32(s));
        } else if (s.length() == 42 && (s.startsWith("0x") || s.startsWith("0X"))) {
            add(out, hex(s));
        } else if (move && s.length() == 66 && s.startsWith("0x") && Hex.isHex(s, 32)) {
            byte[] b = Hex.decode(s);
            add(
                    out,
                    leadingZeros(b) >= 12
                            ? AccountAddress.of(java.util.Arrays.copyOfRange(b, 12, 32))
                            : AccountAddress.of(b));
        }
    }

    private AccountAddress bech32(String s) {
        return cached(s, this::decodeBech32);
    }

    private AccountAddress decodeBech32(String s) {
        try {
            Bech32.Decoded d = Bech32.decode(s);
            if (!d.prefix().equals(prefix) || (d.data().length != 20 && d.data().length != 32)) return null;
            return AccountAddress.of(d.data());
        } catch (RuntimeException e) {
            return null;
        }
    }

    private AccountAddress cached(String s, java.util.function.Function<String, AccountAddress> decode) {
        AccountAddress a = cache.get(s);
        if (a != null) return a;
        a = decode.apply(s);
        if (a == null) return null;
        if (cache.size() > CACHE_LIMIT) cache.clear();
        cache.put(s, a);
        return a;
    }

    private AccountAddress hex(String s) {
        return s == null ? null : cached(s, AccountExtractor::hex20);
    }

    static AccountAddress hex20(String s) {
        if (s == null || !Hex.isHex(s, 20) || !(s.startsWith("0x") || s.startsWith("0X"))) return null;
        return AccountAddress.of(Hex.decode(s));
    }

    // decoded each time, not cached: most topics are event signatures that fail the first check, and hashing a 66-char
    // key for the cache cost about what decoding an address costs
    private AccountAddress topic(String t) {
        return t.length() != 66 ? null : topicAddress(t);
    }

    /** A topic that is a left-padded 20-byte address of at least 2^32 (so token ids and amounts are not accounts). */
    static AccountAddress topicAddress(String topic) {
        if (topic.length() != 66 || !topic.startsWith("0x")) return null;
        for (int i = 2; i < 26; i++) if (topic.charAt(i) != '0') return null;
        boolean large = false;
        for (int i = 26; i < 58; i++) {
            if (topic.charAt(i) != '0') {
                large = true;
                break;
            }
        }
        if (!large || !Hex.isHex(topic, 32)) return null;
        return AccountAddress.of(Hex.decode(topic.substring(26)));
    }

    private static int leadingZeros(byte[] b) {
        int n = 0;
        while (n < b.length && b[n] == 0) n++;
        return n;
    }

    private static void add(Map<AccountAddress, Boolean> out, AccountAddress a) {
        if (a == null || isZero(a)) return;
        out.putIfAbsent(a, false);
    }

    private static boolean isZero(AccountAddress a) {
        for (byte b : a.bytes()) if (b != 0) return false;
        return true;
    }
}
