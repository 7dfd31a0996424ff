package dev.weft.devnet.gen;

import dev.weft.chain.Hashes;
import java.util.Arrays;

/** Addresses of contracts created by CREATE and CREATE2, by the real formulas. */
public final class ContractAddress {
    private ContractAddress() {}

    /** The CREATE address: the last 20 bytes of Keccak-256 of RLP([creator, nonce]). */
    public static byte[] create(byte[] creator, long nonce) {
        if (nonce < 0 || nonce >= 128) {
            byte[] n = trimmed(nonce);
            byte[] rlp = new byte[2 + 20 + 1 + n.length];
            rlp[0] = (byte) (0xc0 + 21 + 1 + n.length);
            rlp[1] = (byte) 0x94;
            System.arraycopy(creator, 0, rlp, 2, 20);
            rlp[22] = (byte) (0x80 + n.length);
            System.arraycopy(n, 0, rlp, 23, n.length);
            return Arrays.copyOfRange(Hashes.keccak256(rlp), 12, 32);
        }
        byte[] rlp = new byte[23];
        rlp[0] = (byte) 0xd6;
        rlp[1] = (byte) 0x94;
        System.arraycopy(creator, 0, rlp, 2, 20);
        rlp[22] = nonce == 0 ? (byte) 0x80 : (byte) nonce;
        return Arrays.copyOfRange(Hashes.keccak256(rlp), 12, 32);
    }

    /** The CREATE2 address: Keccak-256(0xff ++ creator ++ salt ++ Keccak-256(initCode)), last 20 bytes. */
    public static byte[] create2(byte[] creator, byte[] salt32, byte[] initCodeHash) {
        byte[] in = new byte[1 + 20 + 32 + 32];
        in[0] = (byte) 0xff;
        System.arraycopy(creator, 0, in, 1, 20);
        System.arraycopy(salt32, 0, in, 21, 32);
        System.arraycopy(initCodeHash, 0, in, 53, 32);
        return Arrays.copyOfRange(Hashes.keccak256(in), 12, 32);
    }

    private static byte[] trimmed(long v) {
        byte[] b = Genesis.longBytes(v);
        int i = 0;
        while (i < 7 && b[i] == 0) i++;
        return Arrays.copyOfRange(b, i, 8);
    }
}
