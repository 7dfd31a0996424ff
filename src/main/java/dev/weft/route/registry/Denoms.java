package dev.weft.route.registry;

import dev.weft.chain.Hashes;
import dev.weft.chain.Hex;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/** Denoms derived as the chains derive them. */
public final class Denoms {
    /** Move's {@code @std} (0x1) as a 32-byte address. */
    private static final byte[] STD_ADDRESS = new byte[32];
    /** {@code OBJECT_FROM_SEED_ADDRESS_SCHEME} of Move's object module. */
    private static final byte OBJECT_FROM_SEED = (byte) 0xFE;

    static {
        STD_ADDRESS[31] = 1;
    }

    private Denoms() {}

    /** ibc-go: {@code ibc/} + upper-case hex SHA-256 of the full trace {@code port/channel/…/base}. */
    public static String ibc(String path) {
        return "ibc/" + Hex.upper(Hashes.sha256(path.getBytes(StandardCharsets.UTF_8)));
    }

    /** OPinit ({@code x/ophost/types/denom.go}): {@code l2/} + hex SHA3-256 of the big-endian bridge id and the L1 denom. */
    public static String l2(long bridgeId, String l1Denom) {
        byte[] d = l1Denom.getBytes(StandardCharsets.UTF_8);
        ByteBuffer b = ByteBuffer.allocate(8 + d.length).putLong(bridgeId).put(d);
        return "l2/" + Hex.lower(Hashes.sha3_256(b.array()));
    }

    /**
     * The Move fungible-asset metadata object of a denom: the address itself for {@code move/<hex>}, otherwise the named
     * object {@code 0x1::coin} creates for the denom (sha3-256(@0x1 ‖ denom ‖ 0xFE)).
     */
    public static byte[] moveMetadata(String denom) {
        if (denom.startsWith("move/")) return leftPad32(Hex.decode(denom.substring(5)));
        return namedObject(STD_ADDRESS, denom);
    }

    /** Move's {@code object::create_object_address(creator, seed)}. */
    public static byte[] namedObject(byte[] creator, String seed) {
        byte[] s = seed.getBytes(StandardCharsets.UTF_8);
        ByteBuffer b = ByteBuffer.allocate(creator.length + s.length + 1)
                .put(creator)
                .put(s)
                .put(OBJECT_FROM_SEED);
        return Hashes.sha3_256(b.array());
    }

    /**
     * The path a denom has on the chain that receives it over {@code receivingChannel}, when it is sent over
     * {@code sendingChannel}: sending back over the channel it arrived on unwinds one hop, anything else adds one.
     */
    public static String pathAfterTransfer(String path, String port, String sendingChannel, String receivingChannel) {
        String arrivedOver = port + "/" + sendingChannel + "/";
        if (path.startsWith(arrivedOver)) return path.substring(arrivedOver.length());
        return port + "/" + receivingChannel + "/" + path;
    }

    /** The denom a chain uses for a full ICS-20 path: the base itself when no hop is left, else its {@code ibc/} hash. */
    public static String denomOfPath(String path) {
        return hasHops(path) ? ibc(path) : path;
    }

    /** Whether a path starts with a {@code port/channel-N/} hop. */
    public static boolean hasHops(String path) {
        int slash = path.indexOf('/');
        return slash > 0 && path.startsWith("channel-", slash + 1) && path.indexOf('/', slash + 1) > 0;
    }

    /** The hops of a path without its base ({@code transfer/channel-0/transfer/channel-3}), "" when none. */
    public static String traceOf(String path) {
        String rest = path;
        StringBuilder trace = new StringBuilder();
        while (hasHops(rest)) {
            int first = rest.indexOf('/');
            int second = rest.indexOf('/', first + 1);
            if (trace.length() > 0) trace.append('/');
            trace.append(rest, 0, second);
            rest = rest.substring(second + 1);
        }
        return trace.toString();
    }

    private static byte[] leftPad32(byte[] raw) {
        if (raw.length == 32) return raw;
        if (raw.length > 32) throw new IllegalArgumentException("an object address has at most 32 bytes");
        byte[] out = new byte[32];
        System.arraycopy(raw, 0, out, 32 - raw.length, raw.length);
        return out;
    }
}
