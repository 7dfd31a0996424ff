package dev.weft.chain.proto;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/** A minimal protobuf wire-format writer (proto3: default values are omitted). */
public final class ProtoWriter {
    // a plain growable array: ByteArrayOutputStream synchronizes every byte written
    private byte[] buf = new byte[64];
    private int len;

    public ProtoWriter varint(int field, long v) {
        if (v == 0) return this;
        tag(field, 0);
        rawVarint(v);
        return this;
    }

    public ProtoWriter bool(int field, boolean v) {
        return varint(field, v ? 1 : 0);
    }

    public ProtoWriter bytes(int field, byte[] v) {
        if (v == null || v.length == 0) return this;
        return bytesAlways(field, v);
    }

    /** A length-delimited field written even when empty (repeated elements, embedded messages that must appear). */
    public ProtoWriter bytesAlways(int field, byte[] v) {
        tag(field, 2);
        rawVarint(v.length);
        ensure(v.length);
        System.arraycopy(v, 0, buf, len, v.length);
        len += v.length;
        return this;
    }

    public ProtoWriter string(int field, String v) {
        if (v == null || v.isEmpty()) return this;
        return bytes(field, v.getBytes(StandardCharsets.UTF_8));
    }

    public ProtoWriter message(int field, ProtoWriter m) {
        return bytesAlways(field, m.toByteArray());
    }

    public byte[] toByteArray() {
        return Arrays.copyOf(buf, len);
    }

    private void ensure(int more) {
        if (len + more > buf.length) buf = Arrays.copyOf(buf, Math.max(buf.length * 2, len + more));
    }

    private void tag(int field, int wire) {
        rawVarint(((long) field << 3) | wire);
    }

    private void rawVarint(long v) {
        ensure(10);
        while ((v & ~0x7fL) != 0) {
            buf[len++] = (byte) ((v & 0x7f) | 0x80);
            v >>>= 7;
        }
        buf[len++] = (byte) v;
    }
}
