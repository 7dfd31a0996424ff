package dev.weft.route.msgs;

import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Base64;

/** The BCS encodings of Move entry-function arguments ({@code MsgExecute.args} are base64 of each argument's BCS bytes). */
public final class Bcs {
  public static final BigInteger U64_MAX = BigInteger.ONE.shiftLeft(64).subtract(BigInteger.ONE);

  private Bcs() {}

  /** An {@code address} (also {@code Object<T>}): its 32 bytes. */
  public static String address(byte[] address32) {
    if (address32.length != 32) throw new IllegalArgumentException("a Move address has 32 bytes");
    return Base64.getEncoder().encodeToString(address32);
  }

  public static String u64(BigInteger v) {
    return Base64.getEncoder().encodeToString(u64Bytes(v));
  }

  /** {@code Option<u64>}: 0x01 followed by the value (Some). */
  public static String someU64(BigInteger v) {
    byte[] out = new byte[9];
    out[0] = 1;
    System.arraycopy(u64Bytes(v), 0, out, 1, 8);
    return Base64.getEncoder().encodeToString(out);
  }

  private static byte[] u64Bytes(BigInteger v) {
    if (v.signum() < 0 || v.compareTo(U64_MAX) > 0) throw new IllegalArgumentException("amount " + v + " does not fit a u64");
    return ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(v.longValue()).array();
  }
}
