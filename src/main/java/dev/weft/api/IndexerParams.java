package dev.weft.api;

import dev.weft.bus.BusError;
import dev.weft.chain.AccountAddress;
import dev.weft.chain.Hex;
import dev.weft.model.nft.NftAddresses;
import io.netty.buffer.CompositeByteBuf;
import io.netty.buffer.Unpooled;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.internal.buffer.BufferInternal;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Path and query parameters of the indexer endpoints, validated with rollytics' wording, and the list body
 * {@code {"<key>":[…],"pagination":{…}}} assembled from stored JSON without re-serialising it.
 */
public final class IndexerParams {
    private IndexerParams() {}

    /** A height path parameter: a positive integer. */
    public static long height(RoutingContext rc) {
        String s = rc.pathParam("height");
        long h;
        try {
            h = wholeNumber(s);
        } catch (RuntimeException e) {
            throw BusError.invalidValue("height", s, "must be a valid integer");
        }
        if (h < 1) throw BusError.invalidValue("height", s, "must be a positive integer");
        return h;
    }

    /** Compiled once: list requests parse their numbers with it ({@code String.matches} compiles per call). */
    private static final Pattern WHOLE_NUMBER = Pattern.compile("-?[0-9]{1,18}");

    /**
     * A whole number written as digits, with an optional leading minus (so a negative value gets its own message):
     * no {@code +}, no exponent, no fraction, at most 18 digits.
     */
    public static long wholeNumber(String s) {
        String t = s == null ? "" : s.trim();
        if (!WHOLE_NUMBER.matcher(t).matches()) throw new NumberFormatException("not a whole number: " + s);
        return Long.parseLong(t);
    }

    /**
     * Hex written in an address parameter has exactly 40 (20-byte) or 64 (32-byte) digits, with or without 0x; anything
     * else that looks like hex is refused instead of being padded.
     */
    public static String fullLengthHex(String s) {
        if (s == null) return null;
        String t = s.trim();
        boolean prefixed = t.startsWith("0x") || t.startsWith("0X");
        String digits = prefixed ? t.substring(2) : t;
        if ((prefixed || Hex.isDigits(digits, 0)) && digits.length() != 40 && digits.length() != 64) {
            throw new IllegalArgumentException("hex addresses have 40 or 64 digits: " + s);
        }
        return s;
    }

    /** A 32-byte tx hash in hex of either case, with or without 0x. */
    public static byte[] txHash(RoutingContext rc) {
        String s = rc.pathParam("tx_hash").trim();
        if (!Hex.isHex(s, 32)) throw BusError.badRequest("invalid hash format");
        return Hex.decode(s);
    }

    /**
     * An account path parameter: bech32 of the chain's prefix or hex of 20 or 32 bytes. A 20-byte account written as
     * 32-byte hex (left-padded with 12 zero bytes, as Move shows every address) is that account: ingestion stores it in
     * its 20-byte form.
     */
    public static AccountAddress account(RoutingContext rc, String bech32Prefix) {
        return account(rc, bech32Prefix, "account");
    }

    /** {@link #account(RoutingContext, String)} of the path parameter {@code name}. */
    public static AccountAddress account(RoutingContext rc, String bech32Prefix, String name) {
        String s = rc.pathParam(name);
        AccountAddress a;
        try {
            a = AccountAddress.parse(fullLengthHex(s), bech32Prefix);
        } catch (RuntimeException e) {
            throw BusError.invalidValue(name, s, "invalid address format");
        }
        return s.trim().toLowerCase(Locale.ROOT).startsWith(bech32Prefix + "1") ? a : NftAddresses.narrow(a);
    }

    /**
     * The {@code msgs} filter: repeated parameters and comma-separated values, with or without a leading slash; null
     * when absent or empty.
     */
    public static List<String> msgs(RoutingContext rc) {
        Set<String> out = new LinkedHashSet<>();
        for (String v : rc.queryParam("msgs")) {
            for (String piece : v.split(",")) {
                String t = piece.trim();
                while (t.startsWith("/")) t = t.substring(1);
                if (!t.isEmpty()) out.add(t);
            }
        }
        return out.isEmpty() ? null : new ArrayList<>(out);
    }

    /** An optional height query parameter ({@code from_height}, {@code to_height}): a positive integer, or null. */
    public static Long optionalHeight(RoutingContext rc, String name) {
        String v = rc.queryParams().get(name);
        if (v == null || v.isBlank()) return null;
        long h;
        try {
            h = wholeNumber(v);
        } catch (RuntimeException e) {
            throw BusError.invalidValue(name, v, "must be a valid integer");
        }
        if (h < 1) throw BusError.invalidValue(name, v, "must be a positive integer");
        return h;
    }

    /** {@code from_height} and {@code to_height} (each optional, inclusive); from above to is a 400. */
    public static Long[] heightRange(RoutingContext rc) {
        Long from = optionalHeight(rc, "from_height");
        Long to = optionalHeight(rc, "to_height");
        if (from != null && to != null && from > to)
            throw BusError.invalidValue("from_height", String.valueOf(from), "must not be above to_height");
        return new Long[] {from, to};
    }

    /** {@code is_signer}: true or false (any case), false when absent. */
    public static boolean isSigner(RoutingContext rc) {
        String v = rc.queryParams().get("is_signer");
        if (v == null || v.isEmpty()) return false;
        return switch (v.trim().toLowerCase(Locale.ROOT)) {
            case "true" -> true;
            case "false" -> false;
            default -> throw BusError.invalidValue("is_signer", v, "must be true or false");
        };
    }

    /** The exclusive keyset bound of a page: the cursor, or the open end in the page's direction. */
    public static long bound(PageRequest page, String cursorField) {
        Long c = page.cursorLong(cursorField);
        if (c != null) return c;
        return page.reverse() ? Long.MAX_VALUE : 0;
    }

    /** The offset of a page: ignored when a cursor key is given. */
    public static long offset(PageRequest page) {
        return page.hasCursor() ? 0 : page.offset();
    }

    /**
     * {@code {"<key>":[row,row,…],"pagination":{…}}} with the rows as stored: the row buffers are composed, not copied
     * (a page of 100 txs is ~0.5 MB).
     */
    public static Buffer listBody(String key, List<Buffer> rows, JsonObject pagination) {
        CompositeByteBuf out = Unpooled.compositeBuffer(2 * rows.size() + 2);
        out.addComponent(true, Unpooled.wrappedBuffer(("{\"" + key + "\":[").getBytes(StandardCharsets.UTF_8)));
        for (int i = 0; i < rows.size(); i++) {
            if (i > 0) out.addComponent(true, Unpooled.wrappedBuffer(COMMA));
            out.addComponent(true, ((BufferInternal) rows.get(i)).getByteBuf());
        }
        out.addComponent(
                true,
                Unpooled.wrappedBuffer(
                        ("],\"pagination\":" + pagination.encode() + "}").getBytes(StandardCharsets.UTF_8)));
        return BufferInternal.buffer(out);
    }

    private static final byte[] COMMA = {','};

    /** {@code {"<key>":row}}. */
    public static Buffer singleBody(String key, Buffer row) {
        return Buffer.buffer(row.length() + key.length() + 8)
                .appendString("{\"")
                .appendString(key)
                .appendString("\":")
                .appendBuffer(row)
                .appendString("}");
    }

    /** A float the way Go's encoding/json writes it in its plain range ({@code 0.5012}, {@code 2}, {@code 0}). */
    public static String goFloat(double d) {
        if (d == 0 || Double.isNaN(d) || Double.isInfinite(d)) return "0";
        return new BigDecimal(Double.toString(d)).stripTrailingZeros().toPlainString();
    }
}
