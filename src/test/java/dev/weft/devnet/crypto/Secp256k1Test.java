package dev.weft.devnet.crypto;

import dev.weft.chain.AccountAddress;
import dev.weft.chain.Hashes;
import org.bouncycastle.crypto.ec.CustomNamedCurves;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.math.BigInteger;
import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class Secp256k1Test {
  private static final BigInteger N = CustomNamedCurves.getByName("secp256k1").getN();

  @Test
  @DisplayName("signatures are deterministic low-S r||s; the high-S twin, another digest, another key and garbage do not verify")
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
}
