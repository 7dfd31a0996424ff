package dev.weft.api;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class IndexerParamsTest {
    @Test
    @DisplayName("floats as Go's encoding/json writes them; list bodies composed from stored rows")
    void bodies() {
        assertEquals("0.5012", IndexerParams.goFloat(0.5012));
        assertEquals("2", IndexerParams.goFloat(2.0));
        assertEquals("0", IndexerParams.goFloat(0));
        assertEquals("0.0001", IndexerParams.goFloat(0.0001));
        Buffer body = IndexerParams.listBody(
                "txs",
                List.of(Buffer.buffer("{\"a\":1}"), Buffer.buffer("{\"b\":\"é\"}")),
                new JsonObject().putNull("previous_key").putNull("next_key").put("total", "2"));
        assertEquals(
                new JsonObject()
                        .put(
                                "txs",
                                new JsonArray()
                                        .add(new JsonObject().put("a", 1))
                                        .add(new JsonObject().put("b", "é")))
                        .put(
                                "pagination",
                                new JsonObject()
                                        .putNull("previous_key")
                                        .putNull("next_key")
                                        .put("total", "2")),
                new JsonObject(body));
        assertEquals(
                "{\"txs\":[],\"pagination\":{\"previous_key\":null,\"next_key\":null,\"total\":\"0\"}}",
                IndexerParams.listBody("txs", List.of(), PageResponse.empty()).toString());
        assertEquals(
                "{\"tx\":{\"a\":1}}",
                IndexerParams.singleBody("tx", Buffer.buffer("{\"a\":1}")).toString());
    }
}
