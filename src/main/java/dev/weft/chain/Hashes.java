package dev.weft.chain;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import org.bouncycastle.crypto.digests.KeccakDigest;
import org.bouncycastle.crypto.digests.RIPEMD160Digest;

/** The digests chains use: SHA-256 (tx hashes, ibc/ denoms), Keccak-256 (EVM), SHA3-256 (l2/ denoms), RIPEMD-160. */
public final class Hashes {
    private Hashes() {}

    public static byte[] sha256(byte[] in) {
        return jdk("SHA-256", in);
    }

    public static byte[] sha3_256(byte[] in) {
        return jdk("SHA3-256", in);
    }

    public static byte[] keccak256(byte[] in) {
        KeccakDigest d = new KeccakDigest(256);
        d.update(in, 0, in.length);
        byte[] out = new byte[32];
        d.doFinal(out, 0);
        return out;
    }

    public static byte[] keccak256(String s) {
        return keccak256(s.getBytes(StandardCharsets.UTF_8));
    }

    public static byte[] ripemd160(byte[] in) {
        RIPEMD160Digest d = new RIPEMD160Digest();
        d.update(in, 0, in.length);
        byte[] out = new byte[20];
        d.doFinal(out, 0);
        return out;
    }

    private static byte[] jdk(String alg, byte[] in) {
        try {
            return MessageDigest.getInstance(alg).digest(in);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
