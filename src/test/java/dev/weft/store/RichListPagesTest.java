package dev.weft.store;

import static dev.weft.testsupport.TestNodes.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.testsupport.TestConfig;
import dev.weft.testsupport.TestDatabase;
import dev.weft.testsupport.WeftExtension;
import java.math.BigInteger;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Holder pages ({@link RichListStore#holders}) equal a plain {@code ORDER BY … OFFSET … LIMIT} of the positive balances
 * at every offset, in both orders, with and without the total, also where the page is read from the other end (past
 * the middle) and among equal amounts; the online rebuild of the rank index shrinks a bloated index, drops the invalid
 * leftover of a failed rebuild, and changes no page.
 */
class RichListPagesTest {
    @RegisterExtension
    static final WeftExtension weft = new WeftExtension();

    static final int HOLDERS = 2_500;
    static final String TOKEN = "e1".repeat(20);
    static final String OTHER = "e2".repeat(20);
    static final HexFormat HEX = HexFormat.of();

    Database db;
    String url;
    RichListStore store;

    @BeforeEach
    void start() throws Exception {
        TestConfig t = weft.config();
        url = (String) t.get("database.url");
        db = weft.database(t);
        store = new RichListStore(db.pool());
        seed();
    }

    /** HOLDERS positive balances of few distinct amounts (long runs of ties, some beyond 64 bits), zero rows, another token. */
    void seed() throws SQLException {
        Random rnd = new Random(11);
        BigInteger[] amounts = {
            BigInteger.ONE,
            BigInteger.TWO,
            BigInteger.valueOf(1000),
            BigInteger.TEN.pow(30),
            BigInteger.TEN.pow(30).add(BigInteger.ONE),
            new BigInteger("340282366920938463463374607431768211455")
        };
        try (Connection c = TestDatabase.jdbc(url);
                Statement st = c.createStatement()) {
            st.execute("INSERT INTO rich_list_token (contract) VALUES ('\\x" + TOKEN + "'), ('\\x" + OTHER + "')");
            try (PreparedStatement ps = c.prepareStatement(
                    "INSERT INTO rich_list (token_id, account, amount) SELECT id, ?, ?::numeric FROM rich_list_token WHERE contract = decode(?, 'hex')")) {
                for (int i = 0; i < HOLDERS + 300; i++) {
                    byte[] account = new byte[20];
                    rnd.nextBytes(account);
                    // the first 300 are zero balances: stored, never listed
                    String amount = i < 300 ? "0" : amounts[rnd.nextInt(amounts.length)].toString();
                    for (String token : List.of(TOKEN, OTHER)) {
                        ps.setBytes(1, account);
                        ps.setString(2, token.equals(OTHER) && i % 3 == 0 ? "7" : amount);
                        ps.setString(3, token);
                        ps.addBatch();
                    }
                }
                ps.executeBatch();
            }
            st.execute(
                    "UPDATE rich_list_token t SET holders = (SELECT count(*) FROM rich_list r WHERE r.token_id = t.id AND r.amount > 0)");
            st.execute("ANALYZE rich_list");
        }
    }

    /** The page a plain query answers: accounts and amounts, whether a row follows, the total. */
    record Page(List<String> holders, boolean more, long total) {}

    Page reference(Connection c, String token, boolean desc, long offset, int limit, boolean countTotal)
            throws SQLException {
        String order = desc ? "r.amount DESC, r.account ASC" : "r.amount ASC, r.account DESC";
        List<String> rows = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement(
                "SELECT encode(r.account, 'hex'), r.amount::text FROM rich_list r WHERE r.amount > 0 "
                        + "AND r.token_id = (SELECT id FROM rich_list_token WHERE contract = decode(?, 'hex')) ORDER BY "
                        + order + " OFFSET ? LIMIT ?")) {
            ps.setString(1, token);
            ps.setLong(2, offset);
            ps.setInt(3, limit + 1);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) rows.add(rs.getString(1) + "=" + rs.getString(2));
            }
        }
        long total = 0;
        if (countTotal) {
            try (PreparedStatement ps = c.prepareStatement("SELECT count(*) FROM rich_list WHERE amount > 0 "
                    + "AND token_id = (SELECT id FROM rich_list_token WHERE contract = decode(?, 'hex'))")) {
                ps.setString(1, token);
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    total = rs.getLong(1);
                }
            }
        }
        boolean more = rows.size() > limit;
        return new Page(more ? rows.subList(0, limit) : rows, more, total);
    }

    Page api(String token, boolean desc, long offset, int limit, boolean countTotal) {
        OffsetPage<RichListStore.Holder> p = await(store.holders(HEX.parseHex(token), desc, offset, limit, countTotal));
        return new Page(
                p.rows().stream()
                        .map(h -> HEX.formatHex(h.account()) + "=" + h.amount())
                        .toList(),
                p.more(),
                p.total());
    }

    /** Irregular steps over 0..n+5, and every offset around the middle, the last pages and the end. */
    static TreeSet<Long> offsets(long n, int limit) {
        TreeSet<Long> out = new TreeSet<>();
        for (long o = 0; o <= n + 5; o += 1 + (o * 7919) % 61) out.add(o);
        for (long d = -3; d <= 3; d++) {
            for (long at :
                    new long[] {n / 2, (n - limit) / 2, (n - limit - 1) / 2, n - limit - 1, n - limit, n - 1, n, n + 5
                    }) {
                if (at + d >= 0) out.add(at + d);
            }
        }
        return out;
    }

    int comparePages() throws SQLException {
        int compared = 0;
        try (Connection c = TestDatabase.jdbc(url)) {
            for (boolean desc : new boolean[] {true, false}) {
                for (boolean countTotal : new boolean[] {true, false}) {
                    for (int limit : new int[] {100, 7}) {
                        for (long offset : offsets(HOLDERS, limit)) {
                            String what = (desc ? "desc" : "asc") + " total=" + countTotal + " limit=" + limit
                                    + " offset=" + offset;
                            Page want = reference(c, TOKEN, desc, offset, limit, countTotal);
                            assertEquals(want, api(TOKEN, desc, offset, limit, countTotal), what);
                            compared++;
                        }
                    }
                }
                // another token of the same table, an unknown token, an offset past any count
                assertEquals(reference(c, OTHER, desc, 1900, 100, true), api(OTHER, desc, 1900, 100, true));
                assertEquals(new Page(List.of(), false, 0), api("ee".repeat(20), desc, 0, 100, true));
                assertEquals(new Page(List.of(), false, 0), api("ee".repeat(20), desc, 5000, 100, true));
                assertEquals(new Page(List.of(), false, HOLDERS), api(TOKEN, desc, Long.MAX_VALUE, 100, true));
            }
        }
        return compared;
    }

    @Test
    @DisplayName(
            "every page, read from either end, equals the plain query: accounts, amounts (ties by account), more and total")
    void pagesEqualThePlainQuery() throws Exception {
        Page all = api(TOKEN, true, 0, 10_000, true);
        assertEquals(HOLDERS, all.total());
        assertTrue(
                all.holders().stream()
                                .map(h -> h.substring(h.indexOf('=') + 1))
                                .distinct()
                                .count()
                        <= 6,
                "long runs of equal amounts");
        assertTrue(comparePages() > 400);
    }

    @Test
    @DisplayName(
            "the rank index rebuilt online: a bloated index shrinks, a failed rebuild's invalid leftover is dropped, pages unchanged")
    void rebuildRankIndex() throws Exception {
        try (Connection c = TestDatabase.jdbc(url);
                Statement st = c.createStatement()) {
            // every update of an indexed column is a new index entry: 20 rewrites of every balance leave ~20 dead
            // entries per row
            for (int i = 0; i < 20; i++)
                st.execute("UPDATE rich_list SET amount = amount + " + (i % 2 == 0 ? 1 : -1) + " WHERE amount > 0");
            // a unique copy of the rank index over duplicate keys fails after creating its entry: the invalid leftover
            // of a failed rebuild
            try {
                st.execute(
                        "CREATE UNIQUE INDEX CONCURRENTLY rich_list_amount_idx_ccnew ON rich_list (token_id, amount) WHERE amount > 0");
                throw new AssertionError("the duplicate amounts must fail the unique index");
            } catch (SQLException expected) {
                // left behind, invalid
            }
            assertEquals(List.of("rich_list_amount_idx_ccnew"), TestDatabase.invalidIndexes(st, "rich_list"));
        }
        long before = relfilenode();
        RichListStore.RankIndexRebuild r = await(store.rebuildRankIndex());
        assertEquals(List.of("rich_list_amount_idx_ccnew"), r.leftoversDropped());
        assertTrue(r.bytesAfter() * 4 < r.bytesBefore(), r.bytesBefore() + " → " + r.bytesAfter() + " bytes");
        assertNotEquals(before, relfilenode(), "a new index file");
        try (Connection c = TestDatabase.jdbc(url);
                Statement st = c.createStatement()) {
            assertEquals(List.of(), TestDatabase.invalidIndexes(st, "rich_list"));
            try (ResultSet rs = st.executeQuery(
                    "SELECT indisvalid FROM pg_index WHERE indexrelid = 'rich_list_amount_idx'::regclass")) {
                assertTrue(rs.next() && rs.getBoolean(1));
            }
        }
        comparePages();
        RichListStore.RankIndexRebuild again = await(store.rebuildRankIndex());
        assertEquals(List.of(), again.leftoversDropped());
    }

    long relfilenode() {
        return await(db.pool()
                        .query("SELECT relfilenode::bigint FROM pg_class WHERE relname = 'rich_list_amount_idx'")
                        .execute())
                .iterator()
                .next()
                .getLong(0);
    }
}
