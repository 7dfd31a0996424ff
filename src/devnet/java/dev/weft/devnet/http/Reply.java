package dev.weft.devnet.http;

import io.vertx.core.buffer.Buffer;

/** One HTTP answer of a simulated node. */
public record Reply(int status, String contentType, Buffer body) {
    public static final String JSON = "application/json";

    public static Reply json(int status, Buffer body) {
        return new Reply(status, JSON, body);
    }

    public static Reply json(Buffer body) {
        return new Reply(200, JSON, body);
    }

    public static Reply json(int status, Json.Body body) {
        return new Reply(status, JSON, Json.buffer(body));
    }

    public static Reply text(int status, String text) {
        return new Reply(status, "text/plain; charset=utf-8", Buffer.buffer(text));
    }
}
