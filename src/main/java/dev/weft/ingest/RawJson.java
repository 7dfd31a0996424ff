package dev.weft.ingest;

import com.fasterxml.jackson.core.SerializableString;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A span of JSON bytes written verbatim by {@code JsonGenerator.writeRawValue}: how a REST-decoded tx goes into the
 * stored tx record without being parsed into a tree and written back.
 */
final class RawJson implements SerializableString {
    private final byte[] src;
    private final int start;
    private final int end;

    RawJson(byte[] src, int start, int end) {
        this.src = src;
        this.start = start;
        this.end = end;
    }

    @Override
    public int appendUnquotedUTF8(byte[] buffer, int offset) {
        int n = end - start;
        if (offset + n > buffer.length) return -1;
        System.arraycopy(src, start, buffer, offset, n);
        return n;
    }

    @Override
    public byte[] asUnquotedUTF8() {
        return Arrays.copyOfRange(src, start, end);
    }

    @Override
    public int writeUnquotedUTF8(OutputStream out) throws java.io.IOException {
        out.write(src, start, end - start);
        return end - start;
    }

    @Override
    public String getValue() {
        return new String(src, start, end - start, StandardCharsets.UTF_8);
    }

    @Override
    public int charLength() {
        return getValue().length();
    }

    @Override
    public char[] asQuotedChars() {
        throw new UnsupportedOperationException("raw JSON is written unquoted");
    }

    @Override
    public byte[] asQuotedUTF8() {
        throw new UnsupportedOperationException("raw JSON is written unquoted");
    }

    @Override
    public int appendQuotedUTF8(byte[] buffer, int offset) {
        throw new UnsupportedOperationException("raw JSON is written unquoted");
    }

    @Override
    public int appendQuoted(char[] buffer, int offset) {
        throw new UnsupportedOperationException("raw JSON is written unquoted");
    }

    @Override
    public int appendUnquoted(char[] buffer, int offset) {
        String s = getValue();
        if (offset + s.length() > buffer.length) return -1;
        s.getChars(0, s.length(), buffer, offset);
        return s.length();
    }

    @Override
    public int writeQuotedUTF8(OutputStream out) {
        throw new UnsupportedOperationException("raw JSON is written unquoted");
    }

    @Override
    public int putQuotedUTF8(ByteBuffer buffer) {
        throw new UnsupportedOperationException("raw JSON is written unquoted");
    }

    @Override
    public int putUnquotedUTF8(ByteBuffer out) {
        int n = end - start;
        if (out.remaining() < n) return -1;
        out.put(src, start, n);
        return n;
    }
}
