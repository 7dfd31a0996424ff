package dev.weft.devnet.tx;

import dev.weft.chain.Hashes;
import dev.weft.chain.Hex;
import dev.weft.devnet.crypto.Rlp;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.bouncycastle.asn1.x9.X9ECParameters;
import org.bouncycastle.crypto.ec.CustomNamedCurves;
import org.bouncycastle.math.ec.ECAlgorithms;
import org.bouncycastle.math.ec.ECPoint;

/**
 * A raw EVM tx as {@code eth_sendRawTransaction} takes it, with its sender recovered from the ECDSA signature the way
 * go-ethereum's signers do (core/types/transaction_signing.go): legacy txs (EIP-155 {@code v = chainId * 2 + 35 + y},
 * or pre-EIP-155 27/28), EIP-2930 ({@code 0x01}) and EIP-1559 ({@code 0x02}) typed txs. A malformed tx, a signature
 * for another chain id, a high-S or otherwise invalid signature is refused with the message geth answers.
 * {@code gasFeeCap} is the gas price of a legacy or EIP-2930 tx, {@code maxFeePerGas} of an EIP-1559 one, and
 * {@code gasTipCap} its {@code maxPriorityFeePerGas} (the gas price for the others);
 * {@code signature} is {@code r || s || yParity} (65 bytes), {@code publicKey} the sender's compressed key.
 */
public record EthRawTx(
        int type,
        long chainId,
        BigInteger nonce,
        String to,
        String from,
        String hash,
        BigInteger gasLimit,
        BigInteger gasFeeCap,
        BigInteger gasTipCap,
        BigInteger value,
        byte[] input,
        byte[] signature,
        byte[] publicKey) {
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
        if (chainId != 0 && chainId != expected)
            throw new Invalid("invalid chain id for signer: have " + chainId + " want " + expected);
        if (chainId == 0) throw new Invalid("only replay-protected (EIP-155) transactions allowed over RPC");
        byte[] pub = recover(Hashes.keccak256(Rlp.encodeList(signed)), recId, items.get(7), items.get(8));
        return new EthRawTx(
                0,
                chainId,
                Rlp.integer(items.get(0)),
                address(items.get(3)),
                addressOf(pub),
                Hex.lower(Hashes.keccak256(raw)),
                Rlp.integer(items.get(2)),
                Rlp.integer(items.get(1)),
                Rlp.integer(items.get(1)),
                Rlp.integer(items.get(4)),
                Rlp.bytes(items.get(5)),
                signature(items.get(7), items.get(8), recId),
                compressed(pub));
    }

    private static EthRawTx typed(byte[] raw, long expected) {
        int type = raw[0];
        int fields = switch (type) {
            case 1 -> 11;
            case 2 -> 12;
            default -> throw new Invalid("transaction type not supported");
        };
        List<byte[]> items = Rlp.list(Arrays.copyOfRange(raw, 1, raw.length));
        if (items.size() != fields)
            throw new Invalid(
                    "rlp: expected " + fields + " fields in a type " + type + " transaction, got " + items.size());
        long chainId = Rlp.integer(items.get(0)).longValueExact();
        if (chainId != expected)
            throw new Invalid("invalid chain id for signer: have " + chainId + " want " + expected);
        BigInteger y = Rlp.integer(items.get(fields - 3));
        if (y.compareTo(BigInteger.ONE) > 0) throw new Invalid("invalid transaction v, r, s values");
        byte[] body = Rlp.encodeList(items.subList(0, fields - 3));
        byte[] preimage = new byte[body.length + 1];
        preimage[0] = (byte) type;
        System.arraycopy(body, 0, preimage, 1, body.length);
        byte[] pub = recover(Hashes.keccak256(preimage), y.intValue(), items.get(fields - 2), items.get(fields - 1));
        int toIndex = type == 2 ? 5 : 4;
        return new EthRawTx(
                type,
                chainId,
                Rlp.integer(items.get(1)),
                address(items.get(toIndex)),
                addressOf(pub),
                Hex.lower(Hashes.keccak256(raw)),
                Rlp.integer(items.get(toIndex - 1)),
                Rlp.integer(items.get(toIndex - 2)),
                Rlp.integer(items.get(2)),
                Rlp.integer(items.get(toIndex + 1)),
                Rlp.bytes(items.get(toIndex + 2)),
                signature(items.get(fields - 2), items.get(fields - 1), y.intValue()),
                compressed(pub));
    }

    private static String address(byte[] item) {
        byte[] a = Rlp.bytes(item);
        return a.length == 0 ? null : "0x" + Hex.lower(a);
    }

    /** {@code r || s || yParity}, as minievm keeps an Ethereum tx's signature in the Cosmos tx it wraps it in. */
    private static byte[] signature(byte[] rItem, byte[] sItem, int recId) {
        byte[] sig = new byte[65];
        for (int k = 0; k < 2; k++) {
            byte[] b = Rlp.integer(k == 0 ? rItem : sItem).toByteArray();
            int len = Math.min(b.length, 32);
            System.arraycopy(b, b.length - len, sig, 32 * k + 32 - len, len);
        }
        sig[64] = (byte) recId;
        return sig;
    }

    /** The address of an uncompressed public key (65 bytes): the last 20 bytes of its Keccak-256, {@code 0x} hex. */
    static String addressOf(byte[] uncompressed) {
        byte[] h = Hashes.keccak256(Arrays.copyOfRange(uncompressed, 1, 65));
        return "0x" + Hex.lower(Arrays.copyOfRange(h, 12, 32));
    }

    private static byte[] compressed(byte[] uncompressed) {
        return CURVE.getCurve().decodePoint(uncompressed).getEncoded(true);
    }

    /** The sender's uncompressed public key (65 bytes) of a signature (r, s, recovery id) over the digest. */
    static byte[] recover(byte[] digest, int recId, byte[] rItem, byte[] sItem) {
        BigInteger r = Rlp.integer(rItem);
        BigInteger s = Rlp.integer(sItem);
        BigInteger n = CURVE.getN();
        if (r.signum() <= 0
                || s.signum() <= 0
                || r.compareTo(n) >= 0
                || s.compareTo(HALF_N) > 0
                || recId < 0
                || recId > 1) {
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
        ECPoint q = ECAlgorithms.sumOfTwoMultiplies(
                        CURVE.getG(),
                        e.negate().mod(n).multiply(rInv).mod(n),
                        point,
                        s.multiply(rInv).mod(n))
                .normalize();
        if (q.isInfinity()) throw new Invalid("invalid sender");
        return q.getEncoded(false);
    }
}
