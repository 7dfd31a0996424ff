package dev.weft.devnet.crypto;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.chain.AccountAddress;
import dev.weft.chain.Hashes;
import java.math.BigInteger;
import java.util.Arrays;
import java.util.Random;
import org.bouncycastle.crypto.digests.SHA256Digest;
import org.bouncycastle.crypto.ec.CustomNamedCurves;
import org.bouncycastle.crypto.params.ECDomainParameters;
import org.bouncycastle.crypto.params.ECPrivateKeyParameters;
import org.bouncycastle.crypto.signers.ECDSASigner;
import org.bouncycastle.crypto.signers.HMacDSAKCalculator;
import org.bouncycastle.math.ec.FixedPointCombMultiplier;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class Secp256k1Test {
    private static final BigInteger N = CustomNamedCurves.getByName("secp256k1").getN();

    @Test
    @DisplayName(
            "signatures are deterministic low-S r||s; the high-S twin, another digest, another key and garbage do not verify")
    void lowSOnly() {
        BigInteger key = BigInteger.valueOf(123456789);
        byte[] pub = AccountAddress.compressedPublicKey(key);
        byte[] digest = Hashes.sha256("sign me".getBytes());
        byte[] sig = Secp256k1.sign(key, digest);
        assertEquals(64, sig.length);
        assertArrayEquals(sig, Secp256k1.sign(key, digest));
        assertTrue(Secp256k1.verify(pub, digest, sig));
        BigInteger s = new BigInteger(1, Arrays.copyOfRange(sig, 32, 64));
        assertTrue(s.compareTo(N.shiftRight(1)) <= 0);
        byte[] high = sig.clone();
        byte[] hs = N.subtract(s).toByteArray();
        Arrays.fill(high, 32, 64, (byte) 0);
        int len = Math.min(hs.length, 32);
        System.arraycopy(hs, hs.length - len, high, 64 - len, len);
        assertFalse(Secp256k1.verify(pub, digest, high));
        assertFalse(Secp256k1.verify(pub, Hashes.sha256("other".getBytes()), sig));
        assertFalse(Secp256k1.verify(AccountAddress.compressedPublicKey(BigInteger.TWO), digest, sig));
        assertFalse(Secp256k1.verify(pub, digest, new byte[64]));
        assertFalse(Secp256k1.verify(new byte[] {1, 2, 3}, digest, sig));
    }

    @Test
    @DisplayName(
            "the table multiplication of G equals BouncyCastle's, and signatures equal BouncyCastle's RFC 6979 ECDSA (low-S) with the right recovery id")
    void sameAsReference() {
        var curve = CustomNamedCurves.getByName("secp256k1");
        var domain = new ECDomainParameters(curve.getCurve(), curve.getG(), N, curve.getH());
        Random r = new Random(5);
        for (int i = 0; i < 300; i++) {
            BigInteger k =
                    new BigInteger(256, r).mod(N.subtract(BigInteger.ONE)).add(BigInteger.ONE);
            if (i == 0) k = BigInteger.ONE;
            if (i == 1) k = N.subtract(BigInteger.ONE);
            assertEquals(
                    new FixedPointCombMultiplier().multiply(curve.getG(), k).normalize(), Secp256k1.multiplyG(k));

            byte[] digest = Hashes.sha256(k.toByteArray());
            ECDSASigner reference = new ECDSASigner(new HMacDSAKCalculator(new SHA256Digest()));
            reference.init(true, new ECPrivateKeyParameters(k, domain));
            BigInteger[] rs = reference.generateSignature(digest);
            BigInteger low = rs[1].compareTo(N.shiftRight(1)) > 0 ? N.subtract(rs[1]) : rs[1];
            byte[] sig = Secp256k1.signRecoverable(k, digest);
            assertEquals(rs[0], new BigInteger(1, Arrays.copyOfRange(sig, 0, 32)));
            assertEquals(low, new BigInteger(1, Arrays.copyOfRange(sig, 32, 64)));
            assertArrayEquals(Arrays.copyOf(sig, 64), Secp256k1.sign(k, digest));
            // the recovery id names the key: recovering with it gives the signer's public key
            var point = org.bouncycastle.math.ec.ECAlgorithms.sumOfTwoMultiplies(
                            curve.getG(),
                            N.subtract(new BigInteger(1, digest))
                                    .mod(N)
                                    .multiply(rs[0].modInverse(N))
                                    .mod(N),
                            curve.getCurve().decodePoint(compressedR(rs[0], sig[64])),
                            low.multiply(rs[0].modInverse(N)).mod(N))
                    .normalize();
            assertArrayEquals(AccountAddress.compressedPublicKey(k), point.getEncoded(true));
        }
    }

    /** R from r and the recovery id's parity bit (r below n − p never needs the x + n candidate here). */
    private static byte[] compressedR(BigInteger r, byte recId) {
        byte[] out = new byte[33];
        out[0] = (byte) (2 + (recId & 1));
        byte[] x = r.toByteArray();
        int len = Math.min(x.length, 32);
        System.arraycopy(x, x.length - len, out, 33 - len, len);
        return out;
    }
}
