package dev.weft.api;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.StreamReadFeature;
import dev.weft.bus.BusError;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;
import io.vertx.core.json.jackson.HybridJacksonPool;
import io.vertx.core.json.jackson.JacksonCodec;
import io.vertx.ext.web.RoutingContext;

/**
 * Request bodies are read strictly: a key twice in one object is a 400, not "the last one wins" (two parsers in front
 * of each other, a proxy and Weft, could otherwise each see a different request). Each body is parsed once, here, and
 * endpoints take the parsed value with {@link #object}.
 */
public final class StrictJson {
    /** Vert.x's own parsing (its buffer pool, Jackson's default limits) with duplicate keys refused. */
    private static final JsonFactory FACTORY = JsonFactory.builder()
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .recyclerPool(HybridJacksonPool.getInstance())
            .build();

    private static final String PARSED = "weft.json-body";
    private static final Object MALFORMED = new Object();

    private StrictJson() {}

    /** Router handler after the body handler: a body with a duplicate key ends here with a 400; any other is parsed. */
    static void read(RoutingContext rc) {
        Buffer body = rc.body().buffer();
        if (body != null && body.length() > 0) {
            try {
                Object parsed = JacksonCodec.fromParser(FACTORY.createParser(body.getBytes()), Object.class);
                if (parsed != null) rc.put(PARSED, parsed);
            } catch (DecodeException | java.io.IOException e) {
                String duplicate = duplicateKey(e);
                if (duplicate != null) {
                    Responses.error(rc, BusError.badRequest("duplicate key \"" + duplicate + "\" in the request body"));
                    return;
                }
                // malformed JSON: the endpoint's own reading words that error
                rc.put(PARSED, MALFORMED);
            }
        }
        rc.next();
    }

    private static String duplicateKey(Exception e) {
        Throwable c = e instanceof JsonParseException ? e : e.getCause();
        if (!(c instanceof JsonParseException p)) return null;
        String m = p.getOriginalMessage();
        return m != null && m.startsWith("Duplicate field '") ? m.substring(17, m.indexOf('\'', 17)) : null;
    }

    /** The parsed body (any JSON value), or null when there is none or it is malformed (the endpoint words that). */
    static Object parsed(RoutingContext rc) {
        Object parsed = rc.get(PARSED);
        return parsed == MALFORMED ? null : parsed;
    }

    /** The request body as a JSON object: a 400 for an empty body, malformed JSON, or any other JSON value. */
    public static JsonObject object(RoutingContext rc) {
        Object parsed = rc.get(PARSED);
        if (parsed == MALFORMED) throw BusError.badRequest("request body is not valid JSON");
        if (!(parsed instanceof JsonObject o)) throw BusError.badRequest("request body must be a JSON object");
        return o;
    }
}
