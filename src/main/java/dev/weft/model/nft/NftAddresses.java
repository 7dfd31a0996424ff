package dev.weft.model.nft;

import dev.weft.chain.AccountAddress;
import dev.weft.chain.Hex;

/**
 * How NFT addresses are stored: objects and collections as given (Move objects 32 bytes, short forms such as
 * {@code 0x1} left-padded), accounts (owners, creators) in their 20-byte form when the 32-byte value has 12 leading
 * zero bytes, as Initia accounts are shown either way.
 */
public final class NftAddresses {
    private NftAddresses() {}

    /** A Move object address (collections, NFTs): 32 bytes, short forms such as {@code 0x1} left-padded. */
    public static AccountAddress object(String hex) {
        String h = Hex.strip(hex.trim());
        boolean ok = !h.isEmpty() && h.length() <= 64 && h.chars().allMatch(c -> Character.digit(c, 16) >= 0);
        if (!ok) throw new IllegalArgumentException("not a Move address: " + h);
        byte[] raw = Hex.decode(h);
        byte[] out = new byte[32];
        System.arraycopy(raw, 0, out, 32 - raw.length, raw.length);
        return AccountAddress.of(out);
    }

    /** A Move account address: 20 bytes when the 32-byte value has 12 leading zero bytes (Initia accounts), else 32. */
    public static AccountAddress account(String hex) {
        return narrow(object(hex));
    }

    /** The 20-byte form of a 32-byte address with 12 leading zero bytes. */
    public static AccountAddress narrow(AccountAddress a) {
        byte[] b = a.bytes();
        if (b.length != 32) return a;
        for (int i = 0; i < 12; i++) if (b[i] != 0) return a;
        return AccountAddress.of(java.util.Arrays.copyOfRange(b, 12, 32));
    }

    /** 20 bytes left-padded to 32 (a Move object given in its short form). */
    public static byte[] pad32(byte[] b) {
        if (b.length >= 32) return b;
        byte[] out = new byte[32];
        System.arraycopy(b, 0, out, 32 - b.length, b.length);
        return out;
    }
}
