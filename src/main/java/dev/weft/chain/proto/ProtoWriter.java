package dev.weft.chain.proto;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/** A minimal protobuf wire-format writer (proto3: default values are omitted). */
public final class ProtoWriter {
  private final ByteArrayOutputStream out = new ByteArrayOutputStream();

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
    out.writeBytes(v);
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
    return out.toByteArray();
  }

  private void tag(int field, int wire) {
    rawVarint(((long) field << 3) | wire);
  }

  private void rawVarint(long v) {
    while ((v & ~0x7fL) != 0) {
      out.write((int) ((v & 0x7f) | 0x80));
      v >>>= 7;
    }
    out.write((int) v);
  }
}
