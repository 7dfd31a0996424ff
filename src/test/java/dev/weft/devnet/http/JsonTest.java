package dev.weft.devnet.http;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.weft.devnet.json.JsonOut;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class JsonTest {
    private static void txs(JsonOut g) {
        g.writeStartObject();
        g.writeArrayFieldStart("txs");
        for (int i = 0; i < 3; i++) {
            g.writeStartObject();
            g.writeStringField("hash", "H" + i);
            g.writeNumberField("index", i);
            g.writeEndObject();
        }
        g.writeEndArray();
        g.writeStringField("total_count", "3");
        g.writeEndObject();
    }

    /** A body rendered ahead (on a worker) and copied into an answer reads exactly as the body rendered in place. */
    @Test
    void renderedAheadReadsAsRenderedInPlace() {
        Json.Body ahead = Json.rendered(JsonTest::txs);
        Json.Body inPlace = JsonTest::txs;
        String direct = envelope(inPlace);
        String copied = envelope(ahead);
        assertEquals(direct, copied);
        assertEquals(
                "{\"jsonrpc\":\"2.0\",\"id\":-1,\"result\":{\"txs\":[{\"hash\":\"H0\",\"index\":0},{\"hash\":\"H1\",\"index\":1},"
                        + "{\"hash\":\"H2\",\"index\":2}],\"total_count\":\"3\"},\"after\":[1,{\"txs\":[{\"hash\":\"H0\",\"index\":0},"
                        + "{\"hash\":\"H1\",\"index\":1},{\"hash\":\"H2\",\"index\":2}],\"total_count\":\"3\"}]}",
                copied);
        assertEquals(
                3,
                new JsonObject(copied)
                        .getJsonObject("result")
                        .getJsonArray("txs")
                        .size());
    }

    /** The body as a value after a field name, and as the second element of an array (the commas placed around it). */
    private static String envelope(Json.Body body) {
        return new String(
                Json.bytes(g -> {
                    g.writeStartObject();
                    g.writeStringField("jsonrpc", "2.0");
                    g.writeNumberField("id", -1);
                    g.writeFieldName("result");
                    body.write(g);
                    g.writeArrayFieldStart("after");
                    g.writeNumber(1);
                    body.write(g);
                    g.writeEndArray();
                    g.writeEndObject();
                }),
                StandardCharsets.UTF_8);
    }
}
