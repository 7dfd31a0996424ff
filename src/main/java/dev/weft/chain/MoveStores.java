package dev.weft.chain;

/**
 * Move's primary fungible stores (initia-labs/movevm {@code primary_fungible_store.move}, {@code object.move}): the
 * store of an owner for a fungible asset is the object derived from both, {@code sha3-256(owner ‖ metadata ‖ 0xFC)}
 * (32-byte addresses).
 */
public final class MoveStores {
    private static final byte DERIVED_OBJECT = (byte) 0xFC;

    private MoveStores() {}

    /** The primary store address of {@code owner} for the fungible asset {@code metadata}. */
    public static byte[] primaryStore(byte[] owner, byte[] metadata) {
        byte[] in = new byte[65];
        System.arraycopy(leftPad32(owner), 0, in, 0, 32);
        System.arraycopy(leftPad32(metadata), 0, in, 32, 32);
        in[64] = DERIVED_OBJECT;
        return Hashes.sha3_256(in);
    }

    /** A Move address as 32 bytes (a 20-byte account is left-padded with zeros). */
    public static byte[] leftPad32(byte[] b) {
        if (b.length == 32) return b;
        byte[] out = new byte[32];
        System.arraycopy(b, 0, out, 32 - b.length, b.length);
        return out;
    }
}
