package dev.weft.route.msgs;

import dev.weft.chain.Hashes;
import java.io.ByteArrayOutputStream;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** Solidity ABI encoding of function calls (the subset the router's EVM txs use: uint, address, bytes32, bytes, string, tuples). */
public final class Abi {
    private Abi() {}

    public sealed interface Value permits Uint, Address, Bytes32, Bytes, Str, Tuple {}

    public record Uint(BigInteger value) implements Value {
        public Uint {
            if (value.signum() < 0 || value.bitLength() > 256)
                throw new IllegalArgumentException("uint256 out of range: " + value);
        }
    }

    public record Address(byte[] value) implements Value {
        public Address {
            if (value.length != 20) throw new IllegalArgumentException("an address has 20 bytes");
        }
    }

    public record Bytes32(byte[] value) implements Value {
        public Bytes32 {
            if (value.length != 32) throw new IllegalArgumentException("bytes32 has 32 bytes");
        }
    }

    public record Bytes(byte[] value) implements Value {}

    public record Str(String value) implements Value {}

    public record Tuple(List<Value> values) implements Value {}

    public static Uint uint(long v) {
        return new Uint(BigInteger.valueOf(v));
    }

    /** The first four bytes of keccak256 of the canonical signature, e.g. {@code approve(address,uint256)}. */
    public static byte[] selector(String signature) {
        return Arrays.copyOf(Hashes.keccak256(signature), 4);
    }

    /** Calldata: selector ‖ the arguments encoded as a tuple. */
    public static byte[] call(String signature, Value... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(selector(signature));
        out.writeBytes(encodeTuple(List.of(args)));
        return out.toByteArray();
    }

    /** A 20-byte address left-padded into a bytes32 (LayerZero receivers). */
    public static Bytes32 addressAsBytes32(byte[] address) {
        byte[] out = new byte[32];
        System.arraycopy(address, 0, out, 32 - address.length, address.length);
        return new Bytes32(out);
    }

    static boolean isDynamic(Value v) {
        if (v instanceof Tuple t) return t.values().stream().anyMatch(Abi::isDynamic);
        return v instanceof Bytes || v instanceof Str;
    }

    static byte[] encodeTuple(List<Value> values) {
        List<byte[]> heads = new ArrayList<>();
        List<byte[]> tails = new ArrayList<>();
        int headSize = 0;
        for (Value v : values) headSize += isDynamic(v) ? 32 : encode(v).length;
        int offset = headSize;
        for (Value v : values) {
            if (isDynamic(v)) {
                byte[] tail = encode(v);
                heads.add(word(BigInteger.valueOf(offset)));
                tails.add(tail);
                offset += tail.length;
            } else {
                heads.add(encode(v));
            }
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        heads.forEach(out::writeBytes);
        tails.forEach(out::writeBytes);
        return out.toByteArray();
    }

    private static byte[] encode(Value v) {
        if (v instanceof Uint u) return word(u.value());
        if (v instanceof Address a) return leftPad(a.value());
        if (v instanceof Bytes32 b) return b.value().clone();
        if (v instanceof Bytes b) return dynamicBytes(b.value());
        if (v instanceof Str s) return dynamicBytes(s.value().getBytes(StandardCharsets.UTF_8));
        return encodeTuple(((Tuple) v).values());
    }

    private static byte[] dynamicBytes(byte[] data) {
        int padded = (data.length + 31) / 32 * 32;
        byte[] out = new byte[32 + padded];
        System.arraycopy(word(BigInteger.valueOf(data.length)), 0, out, 0, 32);
        System.arraycopy(data, 0, out, 32, data.length);
        return out;
    }

    private static byte[] word(BigInteger v) {
        byte[] raw = v.toByteArray();
        byte[] out = new byte[32];
        int len = Math.min(raw.length, 32);
        System.arraycopy(raw, raw.length - len, out, 32 - len, len);
        return out;
    }

    private static byte[] leftPad(byte[] b) {
        byte[] out = new byte[32];
        System.arraycopy(b, 0, out, 32 - b.length, b.length);
        return out;
    }
}
