package dev.weft.devnet.http;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.util.ByteArrayBuilder;
import io.vertx.core.buffer.Buffer;

import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * Responses are streamed with a Jackson generator straight into bytes: no JSON tree is ever built for a block, so a
 * block of a hundred txs renders in well under a millisecond.
 */
public final class Json {
  public static final JsonFactory FACTORY = JsonFactory.builder().build();

  private Json() {}

  /** Writes one JSON value. */
  public interface Body {
    void write(JsonGenerator g) throws IOException;
  }

  public static byte[] bytes(Body body) {
    try (ByteArrayBuilder out = new ByteArrayBuilder(16 * 1024)) {
      try (JsonGenerator g = FACTORY.createGenerator(out)) {
        body.write(g);
      }
      return out.toByteArray();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  public static Buffer buffer(Body body) {
    return Buffer.buffer(bytes(body));
  }

  /** A string field whose value may be null (written as JSON null). */
  public static void nullableString(JsonGenerator g, String name, String value) throws IOException {
    if (value == null) g.writeNullField(name);
    else g.writeStringField(name, value);
  }
}
