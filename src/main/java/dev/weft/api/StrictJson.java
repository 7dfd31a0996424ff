package dev.weft.api;

import dev.weft.bus.BusError;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;

import java.io.IOException;

/**
 * Request bodies are read strictly: a key twice in one object is a 400, not "the last one wins" (two parsers in front
 * of each other, a proxy and Weft, could otherwise each see a different request).
 */
final class StrictJson {
  private static final JsonFactory FACTORY = JsonFactory.builder().enable(com.fasterxml.jackson.core.StreamReadFeature.STRICT_DUPLICATE_DETECTION).build();

  private StrictJson() {}

  /** Router handler after the body handler: a body with a duplicate key ends here with a 400. */
  static void rejectDuplicateKeys(RoutingContext rc) {
    Buffer body = rc.body().buffer();
    if (body != null && body.length() > 0) {
      String duplicate = duplicateKey(body);
      if (duplicate != null) {
        Responses.error(rc, BusError.badRequest("duplicate key \"" + duplicate + "\" in the request body"));
        return;
      }
    }
    rc.next();
  }

  /** The first duplicated key, or null (also null for malformed JSON: the endpoint's own parsing words that error). */
  static String duplicateKey(Buffer body) {
    try (JsonParser p = FACTORY.createParser(body.getBytes())) {
      while (p.nextToken() != null) {
        // reading every token is enough: the parser fails on the duplicate
        if (p.currentToken() == JsonToken.NOT_AVAILABLE) break;
      }
      return null;
    } catch (JsonParseException e) {
      String m = e.getOriginalMessage();
      if (m != null && m.startsWith("Duplicate field '")) return m.substring(17, m.indexOf('\'', 17));
      return null;
    } catch (IOException e) {
      return null;
    }
  }

  /** The body as a JSON object: a 400 for an empty body, malformed JSON, or any other JSON value. */
  static JsonObject object(Buffer body) {
    if (body == null || body.length() == 0) throw BusError.badRequest("request body must be a JSON object");
    Object parsed;
    try {
      parsed = body.toJsonValue();
    } catch (DecodeException e) {
      throw BusError.badRequest("request body is not valid JSON");
    }
    if (!(parsed instanceof JsonObject o)) throw BusError.badRequest("request body must be a JSON object");
    return o;
  }
}
