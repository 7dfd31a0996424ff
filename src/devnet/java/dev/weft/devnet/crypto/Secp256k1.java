package dev.weft.devnet.crypto;

import java.math.BigInteger;
import java.util.Arrays;
import org.bouncycastle.asn1.x9.X9ECParameters;
import org.bouncycastle.crypto.digests.SHA256Digest;
import org.bouncycastle.crypto.ec.CustomNamedCurves;
import org.bouncycastle.crypto.params.ECDomainParameters;
import org.bouncycastle.crypto.params.ECPublicKeyParameters;
import org.bouncycastle.crypto.signers.ECDSASigner;
import org.bouncycastle.crypto.signers.HMacDSAKCalculator;
import org.bouncycastle.math.ec.ECPoint;
import org.bouncycastle.util.BigIntegers;

/**
 * ECDSA over secp256k1 on a 32-byte digest, with the 64-byte {@code r || s} signatures Cosmos SDK keys use. Only
 * low-S signatures verify, as the SDK's {@code secp256k1.PubKey.VerifySignature} and go-ethereum's
 * {@code crypto.VerifySignature} require (a high-S twin of a valid signature would otherwise be a second valid one).
 */
public final class Secp256k1 {
    private static final X9ECParameters CURVE = CustomNamedCurves.getByName("secp256k1");
    private static final ECDomainParameters DOMAIN =
            new ECDomainParameters(CURVE.getCurve(), CURVE.getG(), CURVE.getN(), CURVE.getH());
    private static final BigInteger HALF_N = CURVE.getN().shiftRight(1);
    /**
     * The multiples j·256^i·G (row i, entry j − 1, for j = 1..255 and i = 0..31), normalised: k·G is then at most 32
     * additions of table points, without doublings. BouncyCastle's comb multiplier also doubles and scans its table in
     * constant time at each step; the devnet signs with published test keys, so a nonce-dependent time leaks nothing,
     * and signing the generated history's EVM txs was most of the devnet's CPU time. 8,160 points (about 1.3 MB), built
     * once.
     */
    private static final ECPoint[][] G_MULTIPLES = gMultiples();

    private Secp256k1() {}

    private static ECPoint[][] gMultiples() {
        ECPoint[] flat = new ECPoint[32 * 255];
        ECPoint base = CURVE.getG();
        for (int i = 0; i < 32; i++) {
            ECPoint p = base;
            for (int j = 0; j < 255; j++) {
                flat[i * 255 + j] = p;
                p = p.add(base);
            }
            base = p.normalize(); // 256^(i+1)·G
        }
        CURVE.getCurve().normalizeAll(flat);
        ECPoint[][] rows = new ECPoint[32][];
        for (int i = 0; i < 32; i++) rows[i] = Arrays.copyOfRange(flat, i * 255, (i + 1) * 255);
        return rows;
    }

    /** k·G for 0 &lt; k &lt; n, normalised: the sum of the table points of k's bytes. */
    static ECPoint multiplyG(BigInteger k) {
        byte[] bytes = k.toByteArray(); // big-endian, possibly with a leading sign byte
        ECPoint acc = CURVE.getCurve().getInfinity();
        for (int i = 0; i < 32 && i < bytes.length; i++) {
            int v = bytes[bytes.length - 1 - i] & 0xff;
            if (v != 0) acc = acc.add(G_MULTIPLES[i][v - 1]);
        }
        return acc.normalize();
    }

    /** A deterministic (RFC 6979) low-S signature of the digest: {@code r || s}, 32 bytes each. */
    public static byte[] sign(BigInteger privateKey, byte[] digest) {
        return Arrays.copyOf(signRecoverable(privateKey, digest), 64);
    }

    /**
     * The same signature with Ethereum's recovery id appended ({@code r || s || v}, v = the parity of R's y, flipped
     * when s is normalised to low-S): what an Ethereum tx carries as its {@code yParity}.
     */
    public static byte[] signRecoverable(BigInteger privateKey, byte[] digest) {
        BigInteger n = CURVE.getN();
        BigInteger e = new BigInteger(1, digest);
        HMacDSAKCalculator k = new HMacDSAKCalculator(new SHA256Digest());
        k.init(n, privateKey, digest);
        while (true) {
            BigInteger nonce = k.nextK();
            ECPoint point = multiplyG(nonce);
            BigInteger r = point.getAffineXCoord().toBigInteger().mod(n);
            if (r.signum() == 0) continue;
            // BouncyCastle's fixed-width inverse modulo the odd n: ~5 µs against BigInteger.modInverse's ~22
            BigInteger s = BigIntegers.modOddInverse(n, nonce)
                    .multiply(e.add(privateKey.multiply(r)))
                    .mod(n);
            if (s.signum() == 0) continue;
            int recId = point.getAffineYCoord().toBigInteger().testBit(0) ? 1 : 0;
            if (s.compareTo(HALF_N) > 0) {
                s = n.subtract(s);
                recId ^= 1;
            }
            byte[] out = new byte[65];
            put(r, out, 0);
            put(s, out, 32);
            out[64] = (byte) recId;
            return out;
        }
    }

    /** Whether the 64-byte low-S signature is the key's over the digest; false for any malformed key or signature. */
    public static boolean verify(byte[] compressedPublicKey, byte[] digest, byte[] signature) {
        if (compressedPublicKey == null || signature == null || signature.length != 64) return false;
        BigInteger r = new BigInteger(1, Arrays.copyOfRange(signature, 0, 32));
        BigInteger s = new BigInteger(1, Arrays.copyOfRange(signature, 32, 64));
        if (r.signum() == 0 || s.signum() == 0 || r.compareTo(CURVE.getN()) >= 0 || s.compareTo(HALF_N) > 0)
            return false;
        try {
            ECDSASigner verifier = new ECDSASigner();
            verifier.init(false, new ECPublicKeyParameters(CURVE.getCurve().decodePoint(compressedPublicKey), DOMAIN));
            return verifier.verifySignature(digest, r, s);
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    private static void put(BigInteger v, byte[] out, int at) {
        byte[] b = v.toByteArray();
        int len = Math.min(b.length, 32);
        System.arraycopy(b, b.length - len, out, at + 32 - len, len);
    }
}
