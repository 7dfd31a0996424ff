package dev.weft.chain;

import java.math.BigInteger;
import java.util.Arrays;
import java.util.Locale;

/**
 * The LayerZero v2 wire facts Weft reads and the devnet writes: the OFT events of LayerZero-Labs/devtools
 * {@code IOFT.sol} ({@code OFTSent}, {@code OFTReceived}), the endpoint's {@code PacketSent} (LayerZero-Labs/LayerZero-v2
 * {@code ILayerZeroEndpointV2.sol}) and its v1 packet ({@code PacketV1Codec}: version ‖ nonce ‖ srcEid ‖ sender ‖
 * dstEid ‖ receiver ‖ guid ‖ message), whose OFT message is {@code sendTo (bytes32) ‖ amountSD (uint64)}
 * ({@code OFTMsgCodec}).
 */
public final class LayerZero {
    private LayerZero() {}

    public static final String OFT_SENT_TOPIC = topic("OFTSent(bytes32,uint32,address,uint256,uint256)");
    public static final String OFT_RECEIVED_TOPIC = topic("OFTReceived(bytes32,uint32,address,uint256)");
    public static final String PACKET_SENT_TOPIC = topic("PacketSent(bytes,bytes,address)");
    /** ERC-20 {@code Transfer}: the mint an OFT's credit emits. */
    public static final String TRANSFER_TOPIC = topic("Transfer(address,address,uint256)");
    /** The OApp entry point an executor calls with a verified packet ({@code ILayerZeroReceiver.lzReceive}). */
    public static final String LZ_RECEIVE = "lzReceive((uint32,bytes32,uint64),bytes32,bytes,address,bytes)";

    private static final int HEADER = 1 + 8 + 4 + 32 + 4 + 32;

    /** {@code 0x} + lower-case Keccak-256 of an event signature. */
    public static String topic(String signature) {
        return Hex.prefixed(Hashes.keccak256(signature));
    }

    /**
     * A v1 packet carrying an OFT message. {@code sender}, {@code receiver} and {@code sendTo} are bytes32 (an EVM
     * address left-padded); {@code guid} is {@code 0x} + lower-case hex; {@code amountSD} is in shared decimals.
     */
    public record OftPacket(
            long nonce,
            long srcEid,
            byte[] sender,
            long dstEid,
            byte[] receiver,
            String guid,
            byte[] sendTo,
            BigInteger amountSD) {
        /** The 20-byte account of {@code sendTo}, or null when its upper 12 bytes are not zero (not an EVM address). */
        public byte[] sendToAddress() {
            for (int i = 0; i < 12; i++) if (sendTo[i] != 0) return null;
            return Arrays.copyOfRange(sendTo, 12, 32);
        }
    }

    /** Decodes the packet of a {@code PacketSent} log's data; null when it is not a v1 packet with an OFT message. */
    public static OftPacket packetSent(String logData) {
        byte[] d;
        try {
            d = Hex.decode(logData);
        } catch (IllegalArgumentException e) {
            return null;
        }
        if (d.length < 96) return null;
        int offset = intWord(d, 0);
        if (offset < 0 || offset + 32 > d.length) return null;
        int len = intWord(d, offset);
        if (len < 0 || offset + 32 + len > d.length) return null;
        byte[] p = Arrays.copyOfRange(d, offset + 32, offset + 32 + len);
        if (p.length < HEADER + 32 + 40 || p[0] != 1) return null;
        return new OftPacket(
                uint(p, 1, 8).longValue(),
                uint(p, 9, 4).longValue(),
                Arrays.copyOfRange(p, 13, 45),
                uint(p, 45, 4).longValue(),
                Arrays.copyOfRange(p, 49, 81),
                Hex.prefixed(Arrays.copyOfRange(p, 81, 113)),
                Arrays.copyOfRange(p, 113, 145),
                uint(p, 145, 8));
    }

    /** The data of an {@code OFTReceived} log (its indexed guid and toAddress are topics). */
    public static String oftReceivedData(long srcEid, BigInteger amountReceivedLD) {
        return "0x" + word(BigInteger.valueOf(srcEid)) + word(amountReceivedLD);
    }

    /** A 20-byte address as a 32-byte topic. */
    public static String addressTopic(byte[] address) {
        return "0x" + "0".repeat(24) + Hex.lower(address);
    }

    public static String word(BigInteger v) {
        String h = v.toString(16);
        return "0".repeat(64 - h.length()) + h.toLowerCase(Locale.ROOT);
    }

    private static int intWord(byte[] d, int at) {
        BigInteger v = uint(d, at, 32);
        return v.bitLength() > 30 ? -1 : v.intValue();
    }

    private static BigInteger uint(byte[] d, int at, int len) {
        return new BigInteger(1, Arrays.copyOfRange(d, at, at + len));
    }
}
