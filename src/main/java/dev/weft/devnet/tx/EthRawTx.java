package dev.weft.devnet.tx;

import dev.weft.chain.Hashes;
import dev.weft.chain.Hex;
import dev.weft.devnet.crypto.Rlp;
import org.bouncycastle.asn1.x9.X9ECParameters;
import org.bouncycastle.crypto.ec.CustomNamedCurves;
import org.bouncycastle.math.ec.ECAlgorithms;
import org.bouncycastle.math.ec.ECPoint;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A raw EVM tx as {@code eth_sendRawTransaction} takes it, with its sender recovered from the ECDSA signature the way
 * go-ethereum's signers do (core/types/transaction_signing.go): legacy txs (EIP-155 {@code v = chainId * 2 + 35 + y},
 * or pre-EIP-155 27/28), EIP-2930 ({@code 0x01}) and EIP-1559 ({@code 0x02}) typed txs. A malformed tx, a signature
 * for another chain id, a high-S or otherwise invalid signature is refused with the message geth answers.
 */
public record EthRawTx(int type, long chainId, BigInteger nonce, String to, String from, String hash) {
  private static final X9ECParameters CURVE = CustomNamedCurves.getByName("secp256k1");
  private static final BigInteger HALF_N = CURVE.getN().shiftRight(1);

  /** A raw tx the node refuses: the JSON-RPC error message (code -32000, as geth answers). */
  public static final class Invalid extends RuntimeException {
    public Invalid(String message) {
      super(message, null, false, false);
    }
  }

  /** Decodes a raw tx and recovers its sender; {@code expectedChainId} is the node's EVM chain id. */
  public static EthRawTx decode(byte[] raw, long expectedChainId) {
    if (raw.length == 0) throw new Invalid("typed transaction too short");
    try {
      return (raw[0] & 0xff) >= 0xc0 ? legacy(raw, expectedChainId) : typed(raw, expectedChainId);
    } catch (IndexOutOfBoundsException | IllegalArgumentException e) {
      throw new Invalid("rlp: invalid transaction encoding");
    }
  }

  private static EthRawTx legacy(byte[] raw, long expected) {
    List<byte[]> items = Rlp.list(raw);
    if (items.size() != 9) throw new Invalid("rlp: expected 9 fields in a legacy transaction, got " + items.size());
    BigInteger v = Rlp.integer(items.get(6));
    long chainId;
    int recId;
    List<byte[]> signed = new ArrayList<>(items.subList(0, 6));
    if (v.equals(BigInteger.valueOf(27)) || v.equals(BigInteger.valueOf(28))) {
      chainId = 0;
      recId = v.intValue() - 27;
    } else {
      BigInteger id = v.subtract(BigInteger.valueOf(35)).shiftRight(1);
      chainId = id.longValueExact();
      recId = v.subtract(BigInteger.valueOf(35)).testBit(0) ? 1 : 0;
      signed.add(Rlp.encodeInteger(id));
      signed.add(Rlp.encodeInteger(BigInteger.ZERO));
      signed.add(Rlp.encodeInteger(BigInteger.ZERO));
    }
    if (chainId != 0 && chainId != expected) throw new Invalid("invalid chain id for signer: have " + chainId + " want " + expected);
    if (chainId == 0) throw new Invalid("only replay-protected (EIP-155) transactions allowed over RPC");
    String from = recover(Hashes.keccak256(Rlp.encodeList(signed)), recId, items.get(7), items.get(8));
    return new EthRawTx(0, chainId, Rlp.integer(items.get(0)), address(items.get(3)), from, Hex.lower(Hashes.keccak256(raw)));
  }

  private static EthRawTx typed(byte[] raw, long expected) {
    int type = raw[0];
    int fields = switch (type) {
      case 1 -> 11;
      case 2 -> 12;
      default -> throw new Invalid("transaction type not supported");
    };
    List<byte[]> items = Rlp.list(Arrays.copyOfRange(raw, 1, raw.length));
    if (items.size() != fields) throw new Invalid("rlp: expected " + fields + " fields in a type " + type + " transaction, got " + items.size());
    long chainId = Rlp.integer(items.get(0)).longValueExact();
    if (chainId != expected) throw new Invalid("invalid chain id for signer: have " + chainId + " want " + expected);
    BigInteger y = Rlp.integer(items.get(fields - 3));
    if (y.compareTo(BigInteger.ONE) > 0) throw new Invalid("invalid transaction v, r, s values");
    byte[] body = Rlp.encodeList(items.subList(0, fields - 3));
    byte[] preimage = new byte[body.length + 1];
    preimage[0] = (byte) type;
    System.arraycopy(body, 0, preimage, 1, body.length);
    String from = recover(Hashes.keccak256(preimage), y.intValue(), items.get(fields - 2), items.get(fields - 1));
    int toIndex = type == 2 ? 5 : 4;
    return new EthRawTx(type, chainId, Rlp.integer(items.get(1)), address(items.get(toIndex)), from, Hex.lower(Hashes.keccak256(raw)));
  }

  private static String address(byte[] item) {
    byte[] a = Rlp.bytes(item);
    return a.length == 0 ? null : "0x" + Hex.lower(a);
  }

  /** The sender of a signature (r, s, recovery id) over the digest, as {@code 0x} lower-case hex. */
  static String recover(byte[] digest, int recId, byte[] rItem, byte[] sItem) {
    BigInteger r = Rlp.integer(rItem);
    BigInteger s = Rlp.integer(sItem);
    BigInteger n = CURVE.getN();
    if (r.signum() <= 0 || s.signum() <= 0 || r.compareTo(n) >= 0 || s.compareTo(HALF_N) > 0 || recId < 0 || recId > 1) {
      throw new Invalid("invalid transaction v, r, s values");
    }
    ECPoint point;
    try {
      byte[] x = new byte[33];
      x[0] = (byte) (recId == 0 ? 0x02 : 0x03);
      byte[] rb = r.toByteArray();
      int len = Math.min(rb.length, 32);
      System.arraycopy(rb, rb.length - len, x, 33 - len, len);
      point = CURVE.getCurve().decodePoint(x);
    } catch (IllegalArgumentException e) {
      throw new Invalid("invalid sender");
    }
    BigInteger e = new BigInteger(1, digest);
    BigInteger rInv = r.modInverse(n);
    ECPoint q = ECAlgorithms.sumOfTwoMultiplies(CURVE.getG(), e.negate().mod(n).multiply(rInv).mod(n), point, s.multiply(rInv).mod(n)).normalize();
    if (q.isInfinity()) throw new Invalid("invalid sender");
    byte[] pub = q.getEncoded(false);
    byte[] h = Hashes.keccak256(Arrays.copyOfRange(pub, 1, 65));
    return "0x" + Hex.lower(Arrays.copyOfRange(h, 12, 32));
  }
}
