package dev.weft.devnet.http;

import dev.weft.devnet.json.JsonOut;

/** JSON-RPC 2.0 envelopes (CometBFT and EVM); {@code id} is the raw JSON of the request id. */
public final class JsonRpc {
    private JsonRpc() {}

    /** An error a method raises: code, message and optional data, as the node would word them. */
    public static final class Error extends RuntimeException {
        public final int code;
        public final String data;

        public Error(int code, String message, String data) {
            super(message);
            this.code = code;
            this.data = data;
        }
    }

    public static void result(JsonOut g, String id, Json.Body result) {
        g.writeStartObject();
        g.writeStringField("jsonrpc", "2.0");
        g.writeFieldName("id");
        g.writeRawValue(id);
        g.writeFieldName("result");
        result.write(g);
        g.writeEndObject();
    }

    public static void error(JsonOut g, String id, int code, String message, String data) {
        g.writeStartObject();
        g.writeStringField("jsonrpc", "2.0");
        g.writeFieldName("id");
        g.writeRawValue(id);
        g.writeObjectFieldStart("error");
        g.writeNumberField("code", code);
        g.writeStringField("message", message);
        if (data != null) g.writeStringField("data", data);
        g.writeEndObject();
        g.writeEndObject();
    }
}
