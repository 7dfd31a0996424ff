package dev.weft.devnet.exec;

import dev.weft.chain.Bech32;
import dev.weft.chain.Hashes;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/** Module-owned addresses as ibc-go, the packet-forward middleware and the Move ibc-hooks derive them. */
public final class IbcAddresses {
    private IbcAddresses() {}

    /** {@code authtypes.NewModuleAddress(name)}: the first 20 bytes of SHA-256 of the module name. */
    public static String module(String name, String prefix) {
        return Bech32.encode(prefix, Arrays.copyOf(Hashes.sha256(name.getBytes(StandardCharsets.UTF_8)), 20));
    }

    /** ICS-20's {@code GetEscrowAddress}: SHA-256 of {@code "ics20-1" 0x00 "port/channel"}, first 20 bytes. */
    public static String escrow(String port, String channel, String prefix) {
        byte[] version = "ics20-1".getBytes(StandardCharsets.UTF_8);
        byte[] path = (port + "/" + channel).getBytes(StandardCharsets.UTF_8);
        byte[] pre = new byte[version.length + 1 + path.length];
        System.arraycopy(version, 0, pre, 0, version.length);
        System.arraycopy(path, 0, pre, version.length + 1, path.length);
        return Bech32.encode(prefix, Arrays.copyOf(Hashes.sha256(pre), 20));
    }

    /**
     * The packet-forward middleware's intermediate receiver of a forwarded packet: {@code address.Hash(
     * "packetfowardmiddleware", "channel/originalSender")} (SHA-256 of SHA-256 of the module name, then the key),
     * first 20 bytes.
     */
    public static String pfmReceiver(String channel, String originalSender, String prefix) {
        return Bech32.encode(
                prefix, Arrays.copyOf(addressHash("packetfowardmiddleware", channel + "/" + originalSender), 20));
    }

    /**
     * The Move ibc-hooks' intermediate account of a packet's sender, which receives the coins and calls the memo's
     * function: {@code sdk.AccAddress(address.Hash("ibc-move-hook-intermediary", "channel/originalSender"))}, all 32 bytes,
     * {@code channel} being the receiving chain's channel (initia-labs/initia {@code x/ibc-hooks/move-hooks/util.go}).
     */
    public static String moveHookIntermediary(String channel, String originalSender, String prefix) {
        return Bech32.encode(prefix, addressHash("ibc-move-hook-intermediary", channel + "/" + originalSender));
    }

    /** The SDK's {@code address.Hash(typ, key)}: SHA-256 of SHA-256 of the type, then the key. */
    private static byte[] addressHash(String typ, String key) {
        byte[] t = Hashes.sha256(typ.getBytes(StandardCharsets.UTF_8));
        byte[] k = key.getBytes(StandardCharsets.UTF_8);
        byte[] in = new byte[t.length + k.length];
        System.arraycopy(t, 0, in, 0, t.length);
        System.arraycopy(k, 0, in, t.length, k.length);
        return Hashes.sha256(in);
    }
}
