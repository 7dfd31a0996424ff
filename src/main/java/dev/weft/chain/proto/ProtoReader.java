package dev.weft.chain.proto;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/** A minimal protobuf wire-format reader: enough to walk Cosmos TxRaw, TxBody, AuthInfo and Any. */
public final class ProtoReader {
    private final byte[] buf;
    private int pos;
    private final int end;
    private int tag;

    public ProtoReader(byte[] buf) {
        this(buf, 0, buf.length);
    }

    private ProtoReader(byte[] buf, int from, int end) {
        this.buf = buf;
        this.pos = from;
        this.end = end;
    }

    /** Advances to the next field; false at the end of the message. */
    public boolean next() {
        if (pos >= end) return false;
        tag = (int) varint();
        return true;
    }

    public int field() {
        return tag >>> 3;
    }

    public int wireType() {
        return tag & 7;
    }

    public long varint() {
        long result = 0;
        for (int shift = 0; shift < 64; shift += 7) {
            if (pos >= end) throw new IllegalArgumentException("truncated varint");
            byte b = buf[pos++];
            result |= (long) (b & 0x7f) << shift;
            if ((b & 0x80) == 0) return result;
        }
        throw new IllegalArgumentException("malformed varint");
    }

    public byte[] bytes() {
        int len = (int) varint();
        if (len < 0 || pos + len > end) throw new IllegalArgumentException("truncated length-delimited field");
        byte[] out = Arrays.copyOfRange(buf, pos, pos + len);
        pos += len;
        return out;
    }

    public String string() {
        return new String(bytes(), StandardCharsets.UTF_8);
    }

    /** Skips the current field's value. */
    public void skip() {
        switch (wireType()) {
            case 0 -> varint();
            case 1 -> pos += 8;
            case 2 -> {
                int len = (int) varint();
                pos += len;
            }
            case 5 -> pos += 4;
            default -> throw new IllegalArgumentException("unsupported wire type " + wireType());
        }
        if (pos > end) throw new IllegalArgumentException("truncated field");
    }
}
