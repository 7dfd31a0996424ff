package dev.weft.api;

import dev.weft.bus.BusError;
import dev.weft.chain.AccountAddress;
import dev.weft.chain.Bech32;
import dev.weft.chain.Hex;
import dev.weft.model.nft.NftAddresses;
import dev.weft.store.EventStore;
import io.vertx.core.MultiMap;
import java.util.Set;

/**
 * The parameters of {@code /v1/events} and {@code /v1/events/ws}, validated: {@code after} (a sequence, 0 = from the
 * start), the filters ({@code chain_id}, {@code topic}, {@code account} as bech32 of any prefix or 0x hex of 20 or 32
 * bytes, both meaning the same key bytes, {@code tx_hash}, {@code transfer}), and for the poll {@code limit} (1–1000,
 * 100) and {@code wait} (milliseconds, up to {@code events.max_wait}). An unknown parameter, a repeated one or a bad
 * value is a 400.
 */
public record EventQuery(
        long after,
        int limit,
        long waitMs,
        String chainId,
        String topic,
        byte[] account,
        byte[] txHash,
        String transfer) {
    static final int DEFAULT_LIMIT = 100;
    static final int MAX_LIMIT = 1000;
    static final Set<String> FILTERS = Set.of("chain_id", "topic", "account", "tx_hash", "transfer");
    static final Set<String> POLL =
            Set.of("after", "limit", "wait", "chain_id", "topic", "account", "tx_hash", "transfer");
    static final Set<String> SUBSCRIBE = Set.of("after", "chain_id", "topic", "account", "tx_hash", "transfer");

    /** @param allowed the parameter names this endpoint takes; {@code maxWaitMs} bounds {@code wait} */
    static EventQuery parse(MultiMap params, Set<String> allowed, long maxWaitMs) {
        for (String name : params.names()) {
            if (!allowed.contains(name))
                throw BusError.badRequest(
                        "unknown parameter " + name + " (known: " + String.join(", ", sorted(allowed)) + ")");
            if (params.getAll(name).size() > 1)
                throw BusError.badRequest("parameter " + name + " given more than once");
        }
        long after = number(params, "after", 0, 0, Long.MAX_VALUE);
        int limit = (int) number(params, "limit", DEFAULT_LIMIT, 1, MAX_LIMIT);
        long wait = number(params, "wait", 0, 0, maxWaitMs);
        String topic = text(params, "topic");
        if (topic != null && !EventStore.TOPICS.contains(topic))
            throw BusError.invalidValue("topic", topic, "one of " + String.join(", ", EventStore.TOPICS));
        String chain = text(params, "chain_id");
        if (chain != null && chain.length() > 128) throw BusError.invalidValue("chain_id", chain, "too long");
        String transfer = text(params, "transfer");
        if (transfer != null && transfer.length() > 256) throw BusError.invalidValue("transfer", transfer, "too long");
        return new EventQuery(
                after,
                limit,
                wait,
                chain,
                topic,
                account(text(params, "account")),
                txHash(text(params, "tx_hash")),
                transfer);
    }

    /**
     * Filters given elsewhere than a query string (a webhook's {@code filters} object, as strings), parsed and validated
     * as {@code /v1/events} parses its own: an unknown or bad filter is the same 400.
     */
    public static EventQuery filters(MultiMap filters) {
        return parse(filters, FILTERS, 0);
    }

    public EventStore.Query store(long from, int pageSize) {
        return new EventStore.Query(from, pageSize, chainId, topic, account, txHash, transfer);
    }

    /** Whether a stored event passes every filter given: what {@link EventStore#after} selects, in memory. */
    boolean matches(EventStore.Event e) {
        return (chainId == null || chainId.equals(e.chainId()))
                && (topic == null || topic.equals(e.topic()))
                && (account == null || java.util.Arrays.equals(account, e.account()))
                && (txHash == null || java.util.Arrays.equals(txHash, e.txHash()))
                && (transfer == null || transfer.equals(e.transfer()));
    }

    private static java.util.List<String> sorted(Set<String> s) {
        return s.stream().sorted().toList();
    }

    private static String text(MultiMap params, String name) {
        String v = params.get(name);
        if (v == null) return null;
        String t = v.trim();
        if (t.isEmpty()) throw BusError.invalidValue(name, v, "must not be empty");
        return t;
    }

    private static long number(MultiMap params, String name, long def, long min, long max) {
        String v = params.get(name);
        if (v == null) return def;
        long n;
        try {
            n = IndexerParams.wholeNumber(v);
        } catch (RuntimeException e) {
            throw BusError.invalidValue(name, v, "must be a whole number");
        }
        if (n < min || n > max) throw BusError.invalidValue(name, v, "must be between " + min + " and " + max);
        return n;
    }

    /** bech32 of any prefix or 0x hex (20 or 32 bytes; 32-byte hex of a 20-byte account, left-padded, is that account). */
    static byte[] account(String s) {
        if (s == null) return null;
        byte[] b;
        if (s.startsWith("0x") || s.startsWith("0X")) {
            if (!Hex.isHex(s, 20) && !Hex.isHex(s, 32))
                throw BusError.invalidValue("account", s, "0x hex of 20 or 32 bytes, or bech32");
            b = NftAddresses.narrow(AccountAddress.of(Hex.decode(s))).bytes();
        } else {
            try {
                b = Bech32.decode(s).data();
            } catch (RuntimeException e) {
                throw BusError.invalidValue("account", s, "0x hex of 20 or 32 bytes, or bech32");
            }
            if (b.length != 20 && b.length != 32)
                throw BusError.invalidValue("account", s, "an account has 20 or 32 bytes");
        }
        return b;
    }

    static byte[] txHash(String s) {
        if (s == null) return null;
        if (!Hex.isHex(s, 32)) throw BusError.invalidValue("tx_hash", s, "32 bytes of hex, with or without 0x");
        return Hex.decode(s);
    }
}
