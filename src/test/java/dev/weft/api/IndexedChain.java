package dev.weft.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.node.WeftNode;
import dev.weft.testsupport.Await;
import dev.weft.testsupport.FixtureChain;
import dev.weft.testsupport.TestNodes;
import dev.weft.testsupport.WeftExtension;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.WebClient;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.function.Function;

/**
 * A node (api + ingest) that indexed the fixture chain up to a height, and helpers to call and walk its API; the
 * fixture stops both at the end of the scope it was made in.
 */
final class IndexedChain {
    final FixtureChain chain;
    final WeftNode node;
    final WebClient client;
    final int port;

    IndexedChain(WeftExtension weft, long height) {
        Vertx vertx = weft.vertx();
        chain = FixtureChain.start(vertx, "fixture-1", height);
        weft.closeAfter(chain::close); // after the node reading it
        node = weft.start(chain.configure(weft.config().roles("api", "ingest"))
                .set("ingest.poll_interval", "50ms")
                .set("ingest.retry_base", "5ms")
                .set("ingest.retry_max", "100ms"));
        client = WebClient.create(vertx);
        port = TestNodes.httpPort(node);
        awaitHeight(height);
    }

    void awaitHeight(long h) {
        Await.until("indexed height " + h, 60, () -> get("/status").getLong("height") >= h);
    }

    JsonObject get(String uri) {
        var r = TestNodes.get(client, port, uri);
        return r.bodyAsJsonObject();
    }

    /** Status and body. */
    Response call(String uri) {
        var r = TestNodes.get(client, port, uri);
        return new Response(r.statusCode(), r.bodyAsJsonObject(), r.getHeader("content-type"));
    }

    record Response(int status, JsonObject body, String contentType) {}

    /**
     * Follows next_key from the first page until it is null; returns the rows in order. {@code sep} is "?" or "&"
     * depending on whether {@code uri} already has a query.
     */
    List<JsonObject> walk(String uri, String listKey, int limit) {
        List<JsonObject> out = new ArrayList<>();
        String sep = uri.contains("?") ? "&" : "?";
        String key = null;
        for (int pages = 0; pages < 10_000; pages++) {
            String u = uri + sep + "pagination.limit=" + limit
                    + (key == null
                            ? ""
                            : "&pagination.key="
                                    + java.net.URLEncoder.encode(key, java.nio.charset.StandardCharsets.UTF_8));
            Response r = call(u);
            assertEquals(200, r.status(), u + " → " + r.body());
            List<JsonObject> rows = new ArrayList<>();
            r.body().getJsonArray(listKey).forEach(o -> rows.add((JsonObject) o));
            assertTrue(rows.size() <= limit);
            out.addAll(rows);
            key = r.body().getJsonObject("pagination").getString("next_key");
            if (key == null) return out;
            assertEquals(limit, rows.size(), "a page followed by another page is full");
        }
        throw new AssertionError("no end");
    }

    static <T> List<T> map(List<JsonObject> rows, Function<JsonObject, T> f) {
        return rows.stream().map(f).toList();
    }

    static String decodeKey(String key) {
        return new String(Base64.getDecoder().decode(key), java.nio.charset.StandardCharsets.UTF_8);
    }
}
