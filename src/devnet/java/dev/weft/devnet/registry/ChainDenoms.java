package dev.weft.devnet.registry;

import dev.weft.chain.Hashes;
import dev.weft.chain.Hex;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * Denoms as the simulated chains' modules derive them, written from the protocols (not shared with the router, so a
 * mistake in either shows against the other and against the recorded mainnet denoms):
 * <ul>
 *   <li>ICS-20 (ibc-go {@code x/transfer/types/trace.go}): a voucher is {@code ibc/} + upper-case hex SHA-256 of its
 *       full trace {@code port/channel/…/base}; a denom sent back over the channel it arrived on loses that hop;</li>
 *   <li>OPinit ({@code x/ophost/types/denom.go}): a deposited L1 denom is {@code l2/} + hex SHA3-256 of the big-endian
 *       bridge id followed by the L1 denom;</li>
 *   <li>Move ({@code 0x1::coin}, {@code object::create_object_address}): a coin's fungible-asset metadata is the
 *       object named by the denom under {@code @0x1}, SHA3-256(creator ‖ seed ‖ 0xFE); {@code move/<hex>} is the
 *       metadata address itself.</li>
 * </ul>
 */
public final class ChainDenoms {
    private static final byte OBJECT_FROM_SEED_SCHEME = (byte) 0xFE;

    private ChainDenoms() {}

    public static String ibcVoucher(String fullPath) {
        byte[] digest = Hashes.sha256(fullPath.getBytes(StandardCharsets.UTF_8));
        return "ibc/" + Hex.upper(digest);
    }

    /** The denom of a full ICS-20 path on the chain holding it: the base when no hop remains, else its voucher. */
    public static String onChain(String fullPath) {
        return startsWithHop(fullPath) ? ibcVoucher(fullPath) : fullPath;
    }

    /** Whether the path begins with a {@code port/channel-N/} hop. */
    public static boolean startsWithHop(String path) {
        String[] parts = path.split("/", 3);
        return parts.length == 3 && !parts[0].isEmpty() && parts[1].startsWith("channel-");
    }

    /**
     * The path on the receiving chain of a coin with {@code path} sent out over {@code port/sendingChannel}, arriving on
     * {@code receivingChannel}: coming back over the hop it arrived on unwinds it, otherwise the receiver's hop is added.
     */
    public static String afterTransfer(String path, String port, String sendingChannel, String receivingChannel) {
        String arrivedOver = port + "/" + sendingChannel + "/";
        return path.startsWith(arrivedOver)
                ? path.substring(arrivedOver.length())
                : port + "/" + receivingChannel + "/" + path;
    }

    public static String opDeposit(long bridgeId, String l1Denom) {
        byte[] denom = l1Denom.getBytes(StandardCharsets.UTF_8);
        byte[] preimage = ByteBuffer.allocate(Long.BYTES + denom.length)
                .putLong(bridgeId)
                .put(denom)
                .array();
        return "l2/" + Hex.lower(Hashes.sha3_256(preimage));
    }

    /** The 32-byte metadata object address of a Move coin's denom. */
    public static byte[] moveMetadata(String denom) {
        if (denom.startsWith("move/")) {
            byte[] raw = Hex.decode(denom.substring("move/".length()));
            if (raw.length > 32) throw new IllegalArgumentException("a Move address has at most 32 bytes");
            byte[] out = new byte[32];
            System.arraycopy(raw, 0, out, 32 - raw.length, raw.length);
            return out;
        }
        byte[] std = new byte[32];
        std[31] = 1;
        return namedObject(std, denom);
    }

    /** {@code object::create_object_address(creator, seed)}. */
    public static byte[] namedObject(byte[] creator, String seed) {
        byte[] s = seed.getBytes(StandardCharsets.UTF_8);
        byte[] preimage = ByteBuffer.allocate(creator.length + s.length + 1)
                .put(creator)
                .put(s)
                .put(OBJECT_FROM_SEED_SCHEME)
                .array();
        return Hashes.sha3_256(preimage);
    }
}
