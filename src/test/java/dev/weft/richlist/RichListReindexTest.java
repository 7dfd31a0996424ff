package dev.weft.richlist;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.node.WeftNode;
import dev.weft.store.Migrations;
import dev.weft.testsupport.Await;
import dev.weft.testsupport.TestConfig;
import dev.weft.testsupport.TestDatabase;
import dev.weft.testsupport.TestNodes;
import dev.weft.testsupport.WeftExtension;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.WebClient;
import io.vertx.pgclient.PgBuilder;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.sqlclient.Pool;
import java.math.BigInteger;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The writer rebuilds the rank index once it has caught up after more than {@code richlist.reindex_after_rows}
 * balance writes, first dropping the invalid leftover of an earlier failed rebuild; the pages answer as before.
 */
class RichListReindexTest {
    @RegisterExtension
    static final WeftExtension weft = new WeftExtension();

    static Vertx vertx;
    static WebClient client;

    @BeforeAll
    static void start() {
        vertx = weft.vertx();
        client = WebClient.create(vertx);
    }

    @Test
    @DisplayName(
            "caught up after more than reindex_after_rows balance writes: a new rank index, the leftover of a failed rebuild dropped, pages unchanged")
    void rebuildsOnceCaughtUp() throws Exception {
        long blocks = 200;
        TestConfig c = RichListTest.devnet(blocks, "devnet", "ingest", "richlist", "api")
                .set("richlist.reindex_after_rows", 300);
        String url = RichListTest.url(c);
        long originalIndex;
        Pool pool = PgBuilder.pool()
                .connectingTo(PgConnectOptions.fromUri(url))
                .using(vertx)
                .build();
        try {
            TestNodes.await(Migrations.apply(vertx, pool));
        } finally {
            TestNodes.await(pool.close());
        }
        try (Connection conn = TestDatabase.jdbc(url);
                Statement st = conn.createStatement()) {
            originalIndex = relfilenode(st);
            // an invalid copy, as a REINDEX CONCURRENTLY that failed leaves it: a unique index over duplicate keys
            // fails after creating it
            st.execute("INSERT INTO rich_list (token_id, account, amount) VALUES (999, '\\xa1', 5), (999, '\\xa2', 5)");
            try {
                st.execute(
                        "CREATE UNIQUE INDEX CONCURRENTLY rich_list_amount_idx_ccnew ON rich_list (token_id, amount) WHERE amount > 0");
                throw new AssertionError("the duplicate amounts must fail the unique index");
            } catch (SQLException expected) {
                // left behind, invalid
            }
            st.execute("DELETE FROM rich_list WHERE token_id = 999");
            assertEquals(List.of("rich_list_amount_idx_ccnew"), TestDatabase.invalidIndexes(st, "rich_list"));
        }

        RichListMetrics metrics = RichListMetrics.forChain("weft-devnet-1");
        double before = metrics.reindexes.count();
        WeftNode node = weft.start(c);
        int port = TestNodes.httpPort(node);
        Await.cursor(url, "richlist", blocks, 120);
        Await.until("a rebuild of the rank index", 60, () -> metrics.reindexes.count() > before);
        try (Connection conn = TestDatabase.jdbc(url);
                Statement st = conn.createStatement()) {
            assertNotEquals(originalIndex, relfilenode(st), "rebuilt into a new file");
            // a later rebuild still running has its own transient copy under the same name; the leftover never goes
            // away
            // unless it is dropped, and the chain's writes (and so the rebuilds) end with its last block
            Await.until(
                    "no invalid rank index: the leftover dropped, no rebuild left one",
                    60,
                    () -> TestDatabase.invalidIndexes(st, "rich_list").isEmpty());
            assertEquals(
                    List.of(),
                    TestDatabase.invalidIndexes(st, "rich_list"),
                    "the leftover dropped, the rebuild left none");
        }
        // every token's pages, in both orders, equal the stored positive balances
        Map<String, BigInteger> stored = RichListTest.stored(url);
        List<String> tokens = stored.keySet().stream()
                .map(k -> k.substring(0, k.indexOf('/')))
                .distinct()
                .toList();
        assertTrue(tokens.size() > 1);
        for (String token : tokens) {
            List<Map.Entry<String, BigInteger>> want = new ArrayList<>();
            stored.forEach((k, v) -> {
                if (k.startsWith(token + "/")) want.add(Map.entry(k.substring(k.indexOf('/') + 1), v));
            });
            want.sort(Map.Entry.<String, BigInteger>comparingByValue()
                    .reversed()
                    .thenComparing(Map.Entry.comparingByKey()));
            List<String> desc =
                    want.stream().map(e -> e.getKey() + "=" + e.getValue()).toList();
            List<String> asc = new ArrayList<>(desc);
            Collections.reverse(asc);
            int n = desc.size();
            for (boolean reverse : new boolean[] {true, false}) {
                List<String> all = reverse ? desc : asc;
                for (int offset = 0; offset <= n + 1; offset += 1 + offset % 7) {
                    assertEquals(
                            all.subList(Math.min(offset, n), Math.min(offset + 5, n)),
                            page(port, token, reverse, offset, 5),
                            token + " reverse=" + reverse + " offset=" + offset);
                }
            }
        }
    }

    /** One page of the endpoint as "account=amount". */
    static List<String> page(int port, String token, boolean reverse, int offset, int limit) {
        var r = TestNodes.get(
                client,
                port,
                "/indexer/richlist/v1/" + token + "?pagination.reverse=" + reverse + "&pagination.limit=" + limit
                        + "&pagination.offset=" + offset);
        assertEquals(200, r.statusCode(), r.bodyAsString());
        List<String> out = new ArrayList<>();
        r.bodyAsJsonObject()
                .getJsonArray("holders")
                .forEach(o ->
                        out.add(((JsonObject) o).getString("account") + "=" + ((JsonObject) o).getString("amount")));
        return out;
    }

    static long relfilenode(Statement st) throws SQLException {
        try (ResultSet rs =
                st.executeQuery("SELECT relfilenode FROM pg_class WHERE relname = 'rich_list_amount_idx'")) {
            rs.next();
            return rs.getLong(1);
        }
    }
}
