package dev.weft.devnet.json;

import io.netty.buffer.Unpooled;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.internal.buffer.BufferInternal;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A minimal streaming JSON writer into a byte array, with the method names of Jackson's generator. Node answers are
 * mostly long ASCII strings that need no escaping (hashes, hex, base64, bech32): those are copied in one block, which
 * makes a 600 KB block answer several times cheaper than a general-purpose generator. Commas are placed by nesting
 * level; the caller is trusted to produce well-formed JSON (names are plain ASCII constants). Values the caller knows
 * to be plain ASCII without quotes or backslashes (hex, base64, bech32, decimals, times) go through the
 * {@code writeSafe…} methods, which skip the escape scan.
 */
public final class JsonOut {
    private static final byte[] HEX = "0123456789abcdef".getBytes(StandardCharsets.US_ASCII);
    private static final int MAX_DEPTH = 64;

    private byte[] buf;
    private int len;
    /** Per nesting level: whether the next value needs a comma before it. */
    private final boolean[] comma = new boolean[MAX_DEPTH];

    private int depth;
    /** A field name was just written: the next value follows its colon without a comma. */
    private boolean afterName;

    public JsonOut(int capacity) {
        buf = new byte[Math.max(64, capacity)];
    }

    public byte[] toByteArray() {
        return Arrays.copyOf(buf, len);
    }

    /** The bytes as a Vert.x buffer (wrapping one copy, not copying twice). */
    public Buffer toBuffer() {
        return BufferInternal.buffer(Unpooled.wrappedBuffer(toByteArray()));
    }

    /** Empties the writer to reuse its array. */
    public JsonOut reset() {
        len = 0;
        depth = 0;
        afterName = false;
        comma[0] = false;
        return this;
    }

    private void ensure(int more) {
        if (len + more > buf.length) buf = Arrays.copyOf(buf, Math.max(buf.length * 2, len + more));
    }

    private void beforeValue() {
        if (afterName) {
            afterName = false;
            return;
        }
        if (comma[depth]) {
            ensure(1);
            buf[len++] = ',';
        }
        comma[depth] = true;
    }

    private void open(byte b) {
        beforeValue();
        ensure(1);
        buf[len++] = b;
        comma[++depth] = false;
    }

    private void close(byte b) {
        depth--;
        ensure(1);
        buf[len++] = b;
    }

    public void writeStartObject() {
        open((byte) '{');
    }

    public void writeEndObject() {
        close((byte) '}');
    }

    public void writeStartArray() {
        open((byte) '[');
    }

    public void writeEndArray() {
        close((byte) ']');
    }

    public void writeFieldName(String name) {
        beforeValue();
        ensure(name.length() + 3);
        buf[len++] = '"';
        ascii(name);
        buf[len++] = '"';
        buf[len++] = ':';
        afterName = true;
    }

    public void writeString(String s) {
        beforeValue();
        quoted(s);
    }

    public void writeStringField(String name, String value) {
        writeFieldName(name);
        writeString(value);
    }

    /** A string known to need no escaping (hex, base64, bech32, a decimal, a time): copied as is. */
    public void writeSafeString(String s) {
        beforeValue();
        ensure(s.length() + 2);
        buf[len++] = '"';
        ascii(s);
        buf[len++] = '"';
    }

    public void writeSafeStringField(String name, String value) {
        writeFieldName(name);
        writeSafeString(value);
    }

    public void writeNumber(long v) {
        beforeValue();
        ascii(Long.toString(v));
    }

    public void writeNumberField(String name, long v) {
        writeFieldName(name);
        writeNumber(v);
    }

    public void writeBoolean(boolean v) {
        beforeValue();
        ascii(v ? "true" : "false");
    }

    public void writeBooleanField(String name, boolean v) {
        writeFieldName(name);
        writeBoolean(v);
    }

    public void writeNull() {
        beforeValue();
        ascii("null");
    }

    public void writeNullField(String name) {
        writeFieldName(name);
        writeNull();
    }

    public void writeObjectFieldStart(String name) {
        writeFieldName(name);
        writeStartObject();
    }

    public void writeArrayFieldStart(String name) {
        writeFieldName(name);
        writeStartArray();
    }

    /** A complete JSON value given as text (trusted). */
    public void writeRawValue(String json) {
        beforeValue();
        utf8(json);
    }

    /** A complete JSON value given as UTF-8 bytes (trusted), e.g. one rendered earlier on another thread. */
    public void writeRawValue(byte[] json) {
        beforeValue();
        ensure(json.length);
        System.arraycopy(json, 0, buf, len, json.length);
        len += json.length;
    }

    /** Copies an ASCII string without checks (the caller knows it is plain ASCII). */
    private void ascii(String s) {
        int n = s.length();
        ensure(n);
        s.getBytes(0, n, buf, len); // the low byte of each char: exact for ASCII, and a block copy for Latin-1 strings
        len += n;
    }

    private void utf8(String s) {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        ensure(b.length);
        System.arraycopy(b, 0, buf, len, b.length);
        len += b.length;
    }

    private void quoted(String s) {
        int n = s.length();
        boolean plain = true;
        for (int i = 0; i < n; i++) {
            char c = s.charAt(i);
            if (c < 0x20 || c == '"' || c == '\\' || c >= 0x7f) {
                plain = false;
                break;
            }
        }
        ensure(n + 2);
        buf[len++] = '"';
        if (plain) ascii(s);
        else escaped(s);
        ensure(1);
        buf[len++] = '"';
    }

    private void escaped(String s) {
        ensure(6 * s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '"' || c == '\\') {
                buf[len++] = '\\';
                buf[len++] = (byte) c;
            } else if (c == '\n') {
                buf[len++] = '\\';
                buf[len++] = 'n';
            } else if (c == '\t') {
                buf[len++] = '\\';
                buf[len++] = 't';
            } else if (c == '\r') {
                buf[len++] = '\\';
                buf[len++] = 'r';
            } else if (c < 0x20) {
                buf[len++] = '\\';
                buf[len++] = 'u';
                buf[len++] = '0';
                buf[len++] = '0';
                buf[len++] = HEX[c >> 4];
                buf[len++] = HEX[c & 0xf];
            } else if (c < 0x80) {
                buf[len++] = (byte) c;
            } else {
                int end = Character.isHighSurrogate(c) && i + 1 < s.length() ? i + 2 : i + 1;
                utf8(s.substring(i, end));
                i = end - 1;
            }
        }
    }
}
