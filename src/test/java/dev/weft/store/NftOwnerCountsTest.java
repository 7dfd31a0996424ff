package dev.weft.store;

import static dev.weft.testsupport.TestNodes.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.weft.chain.AccountAddress;
import dev.weft.model.nft.NftEvent;
import dev.weft.model.nft.NftFold;
import dev.weft.node.WeftNode;
import dev.weft.testsupport.TestDatabase;
import dev.weft.testsupport.TestNodes;
import dev.weft.testsupport.WeftExtension;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.WebClient;
import io.vertx.pgclient.PgBuilder;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.SqlConnection;
import io.vertx.sqlclient.Tuple;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The owner counters of V008 ({@code nft_owner_collection}): backfilled from the tokens of a database created before
 * them, then kept equal to a count of the {@code nft} rows by the ingest commit's NFT statements (mint, transfer,
 * burn), also when the same changes are written a second time; the API's owner totals read them.
 */
class NftOwnerCountsTest {
    @RegisterExtension
    static final WeftExtension weft = new WeftExtension();

    static final String X = "c1".repeat(20);
    static final String Y = "c2".repeat(20);
    static final String A = "a1".repeat(20);
    static final String B = "b2".repeat(20);
    static final String COUNTS =
            "SELECT encode(owner, 'hex') || ' ' || encode(collection, 'hex') || ' ' || %s FROM %s ORDER BY 1";

    @Test
    @DisplayName(
            "V008 backfills the counters of a V007 database; mints, transfers and burns keep them equal to count(*), written once or twice; the API totals read them")
    void countersFollowTheRows() throws Exception {
        String url = TestDatabase.freshUrl();
        try (Connection c = TestDatabase.jdbc(url);
                Statement st = c.createStatement()) {
            c.setAutoCommit(false);
            OlderSchema.before(st, "V008");
            for (String coll : List.of(X, Y)) {
                st.execute("INSERT INTO nft_collection (addr, name, search, height, time_ns) VALUES ('\\x" + coll
                        + "', 'c', 'c|', 1, 1)");
            }
            String[][] tokens = {{X, "1", A}, {X, "2", A}, {X, "3", A}, {Y, "1", A}, {Y, "2", A}, {X, "4", B}};
            for (String[] t : tokens) {
                st.execute("INSERT INTO nft (collection, token_id, owner, uri, height, time_ns) VALUES ('\\x" + t[0]
                        + "', '" + t[1] + "', '\\x" + t[2] + "', 'u', 1, 1)");
            }
            st.execute("UPDATE nft_collection SET nft_count = (SELECT count(*) FROM nft WHERE collection = addr)");
            c.commit();
        }

        Vertx vertx = weft.vertx();
        Pool pool = PgBuilder.pool()
                .connectingTo(PgConnectOptions.fromUri(url))
                .using(vertx)
                .build();
        try {
            await(Migrations.apply(vertx, pool));
            assertEquals(
                    List.of(A + " " + X + " 3", A + " " + Y + " 2", B + " " + X + " 1"),
                    counters(url),
                    "backfilled from the stored tokens");
            assertEquals(rowCounts(url), counters(url));

            // one run: B mints X/5, A gives X/1 to B, Y/2 is burnt
            NftFold fold = NftFold.of(List.of(new NftFold.Block(
                    2,
                    2,
                    1,
                    List.of(addr(B), addr(A), addr(A)),
                    List.of(
                            NftEvent.mint(0, addr(X), "5", null, addr(B), "u5"),
                            NftEvent.transfer(1, addr(X), "1", null, addr(B)),
                            NftEvent.burn(2, addr(Y), "2", null)))));
            write(pool, fold);
            assertEquals(List.of(A + " " + X + " 2", A + " " + Y + " 1", B + " " + X + " 3"), counters(url));
            assertEquals(rowCounts(url), counters(url));
            write(pool, fold);
            assertEquals(rowCounts(url), counters(url), "the same changes written again count nothing twice");

            // every token of A leaves: its counters go to zero, and it owns no collection
            write(
                    pool,
                    NftFold.of(List.of(new NftFold.Block(
                            3,
                            3,
                            4,
                            List.of(addr(A)),
                            List.of(
                                    NftEvent.transfer(0, addr(X), "2", null, addr(B)),
                                    NftEvent.transfer(0, addr(X), "3", null, addr(B)),
                                    NftEvent.burn(0, addr(Y), "1", null))))));
            assertEquals(rowCounts(url), counters(url));
            assertEquals(List.of(B + " " + X + " 5"), counters(url), "A's rows went with its last tokens");

            WeftNode node = weft.start(weft.config().roles("api").set("database.url", url));
            try {
                WebClient client = WebClient.create(vertx);
                int port = TestNodes.httpPort(node);
                assertEquals("5", total(client, port, "/indexer/nft/v1/tokens/by_account/0x" + B));
                assertEquals("0", total(client, port, "/indexer/nft/v1/tokens/by_account/0x" + A));
                assertEquals(
                        "5",
                        total(client, port, "/indexer/nft/v1/tokens/by_account/0x" + B + "?collection_addr=0x" + X));
                assertEquals("1", total(client, port, "/indexer/nft/v1/collections/by_account/0x" + B));
                assertEquals("0", total(client, port, "/indexer/nft/v1/collections/by_account/0x" + A));
                client.close();
            } finally {
                weft.stop(node);
            }
        } finally {
            await(pool.close());
        }
    }

    @Test
    @DisplayName("V012 deletes the rows V008 left at zero; from then on a pair's row goes with its last token")
    void zeroRowsAreDeleted() throws Exception {
        String url = TestDatabase.freshUrl();
        try (Connection c = TestDatabase.jdbc(url);
                Statement st = c.createStatement()) {
            c.setAutoCommit(false);
            OlderSchema.before(st, "V012");
            st.execute("INSERT INTO nft_collection (addr, name, search, height, time_ns) VALUES ('\\x" + X
                    + "', 'c', 'c|', 1, 1)");
            st.execute("INSERT INTO nft (collection, token_id, owner, uri, height, time_ns) VALUES ('\\x" + X
                    + "', '1', '\\x" + A + "', 'u', 1, 1), ('\\x" + X + "', '2', '\\x" + A + "', 'u', 1, 1)");
            st.execute("UPDATE nft SET owner = '\\x" + B + "' WHERE token_id = '1'");
            st.execute("DELETE FROM nft WHERE token_id = '2'");
            c.commit();
            assertEquals(
                    List.of(A + " " + X + " 0", B + " " + X + " 1"),
                    counters(url),
                    "V008 keeps A's row at zero after a transfer and a burn");
        }
        Vertx vertx = TestNodes.newVertx();
        Pool pool = PgBuilder.pool()
                .connectingTo(PgConnectOptions.fromUri(url))
                .using(vertx)
                .build();
        try {
            await(Migrations.apply(vertx, pool));
            assertEquals(List.of(B + " " + X + " 1"), counters(url), "the zero row is gone");
            try (Connection c = TestDatabase.jdbc(url);
                    Statement st = c.createStatement()) {
                // a transfer (UPDATE) and a burn (DELETE) each take a pair's last token
                st.execute("INSERT INTO nft (collection, token_id, owner, uri, height, time_ns) VALUES ('\\x" + X
                        + "', '3', '\\x" + A + "', 'u', 2, 2)");
                assertEquals(List.of(A + " " + X + " 1", B + " " + X + " 1"), counters(url));
                st.execute("UPDATE nft SET owner = '\\x" + B + "' WHERE token_id = '3'");
                assertEquals(List.of(B + " " + X + " 2"), counters(url), "the transfer deleted A's row");
                st.execute("DELETE FROM nft");
                assertEquals(List.of(), counters(url), "the burns deleted B's row");
                assertEquals(rowCounts(url), counters(url));
            }
        } finally {
            await(pool.close());
            await(vertx.close());
        }
    }

    private static AccountAddress addr(String hex) {
        return AccountAddress.of(dev.weft.chain.Hex.decode("0x" + hex));
    }

    /** The fold's statements in one transaction, in order, as the ingest commit sends them. */
    private static void write(Pool pool, NftFold fold) {
        List<String> sql = new ArrayList<>();
        List<Tuple> args = new ArrayList<>();
        NftWrites.add(fold, true, (s, t) -> {
            sql.add(s);
            args.add(t);
        });
        await(pool.withTransaction(conn -> run(conn, sql, args, 0)));
    }

    private static Future<Void> run(SqlConnection conn, List<String> sql, List<Tuple> args, int i) {
        if (i == sql.size()) return Future.succeededFuture();
        return conn.preparedQuery(sql.get(i)).execute(args.get(i)).compose(r -> run(conn, sql, args, i + 1));
    }

    private static List<String> counters(String url) throws Exception {
        // every row: a pair without live tokens has none (V012), so the rows equal the count exactly
        return strings(url, COUNTS.formatted("tokens", "nft_owner_collection"));
    }

    private static List<String> rowCounts(String url) throws Exception {
        return strings(url, COUNTS.formatted("count(*)", "nft GROUP BY owner, collection"));
    }

    private static List<String> strings(String url, String sql) throws Exception {
        List<String> out = new ArrayList<>();
        try (Connection c = TestDatabase.jdbc(url);
                Statement st = c.createStatement();
                ResultSet r = st.executeQuery(sql)) {
            while (r.next()) out.add(r.getString(1));
        }
        return out;
    }

    private static String total(WebClient client, int port, String uri) {
        JsonObject body = TestNodes.get(client, port, uri).bodyAsJsonObject();
        return String.valueOf(body.getJsonObject("pagination").getValue("total"));
    }
}
