package dev.weft.devnet.http;

import dev.weft.devnet.json.JsonOut;
import io.vertx.core.buffer.Buffer;

/**
 * Responses are streamed into bytes with {@link JsonOut}: no JSON tree is ever built for a block, so a block of a
 * hundred txs renders in well under a millisecond.
 */
public final class Json {
    private Json() {}

    /** Writes one JSON value. */
    public interface Body {
        void write(JsonOut g);
    }

    /** One reusable writer per thread (event loop or worker), so a block's answer does not regrow its array each time. */
    private static final ThreadLocal<JsonOut> SCRATCH = ThreadLocal.withInitial(() -> new JsonOut(256 * 1024));

    private static final ThreadLocal<Boolean> IN_USE = ThreadLocal.withInitial(() -> false);

    public static byte[] bytes(Body body) {
        return render(body).toByteArray();
    }

    public static Buffer buffer(Body body) {
        return render(body).toBuffer();
    }

    /**
     * Renders a body now, on the calling thread (a worker: an answer of many txs is the costliest part of serving it),
     * as a body that copies the bytes, so the event loop that writes the answer only copies them.
     */
    public static Body rendered(Body body) {
        byte[] json = bytes(body);
        return g -> g.writeRawValue(json);
    }

    private static JsonOut render(Body body) {
        if (IN_USE.get()) { // a nested rendering gets its own writer
            JsonOut out = new JsonOut(16 * 1024);
            body.write(out);
            return out;
        }
        IN_USE.set(true);
        try {
            JsonOut out = SCRATCH.get().reset();
            body.write(out);
            return out;
        } finally {
            IN_USE.set(false);
        }
    }
}
