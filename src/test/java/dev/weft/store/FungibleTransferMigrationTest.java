package dev.weft.store;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.weft.testsupport.TestDatabase;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * A database indexed before the transfer rows existed upgrades in place: V007 writes the rows of the heights the rich
 * list has not applied yet from the stored tx JSON, as ingestion would have written them.
 */
class FungibleTransferMigrationTest {
    static final String TOPIC = "0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef";
    static final String TOKEN = "E1ff7038eaaaf027031688e1535a055b2bac2546";
    static final String A = "a1".repeat(20);
    static final String B = "b0".repeat(20);

    static JsonObject log(String token, String from, String to, String dataHex, int topics) {
        JsonArray t =
                new JsonArray().add(TOPIC).add("0x" + "0".repeat(24) + from).add("0x" + "0".repeat(24) + to);
        if (topics == 4) t.add("0x" + "0".repeat(63) + "1");
        return new JsonObject().put("address", "0x" + token).put("topics", t).put("data", dataHex);
    }

    static JsonObject event(String type, String key, String value) {
        return new JsonObject()
                .put("type", type)
                .put(
                        "attributes",
                        new JsonArray().add(new JsonObject().put("key", key).put("value", value)));
    }

    static byte[] tx(JsonObject... events) {
        JsonArray e = new JsonArray();
        for (JsonObject o : events) e.add(o);
        return new JsonObject().put("txhash", "AB").put("events", e).encode().getBytes(StandardCharsets.UTF_8);
    }

    @Test
    @DisplayName(
            "V007 on a database of today's schema: rows for the heights above the rich-list cursor, in tx and event order; denoms with their first height")
    void upgradesInPlace() throws Exception {
        String url = TestDatabase.freshUrl();
        List<Migrations.Migration> all = Migrations.load();
        try (Connection c = TestDatabase.jdbc(url)) {
            c.setAutoCommit(false);
            try (Statement st = c.createStatement()) {
                for (Migrations.Migration m : all) {
                    if (m.version().startsWith("V007")) break;
                    st.execute(m.sql());
                }
                st.execute("UPDATE pipeline_cursor SET height = 6 WHERE name = 'richlist'");
                st.execute("UPDATE pipeline_cursor SET height = 9 WHERE name = 'ingest'");
            }
            try (PreparedStatement ps = c.prepareStatement(
                    "INSERT INTO tx (sequence, height, tx_index, hash, code, json) VALUES (?, ?, 0, '\\x00', 0, ?)")) {
                Object[][] txs = {
                    {
                        1L,
                        5L,
                        tx(
                                event("evm", "log", log(TOKEN, A, B, "0x05", 3).encode()),
                                event("coin_spent", "amount", "7uold"))
                    },
                    {
                        2L,
                        8L,
                        tx(
                                event("coin_spent", "amount", "100uinit,3ibc/ABCDEF"),
                                event(
                                        "evm",
                                        "log",
                                        log(TOKEN, A, B, "0x0de0b6b3a7640000", 3)
                                                .encode()),
                                event("evm", "log", log(TOKEN, A, B, "0x01", 4).encode()),
                                event(
                                        "evm",
                                        "log",
                                        log(TOKEN, "00".repeat(20), A, "0x" + "f".repeat(64), 3)
                                                .encode()),
                                event("evm", "log", log(TOKEN, A, B, "0x00", 3).encode()),
                                event("evm", "log", "not json " + TOPIC.substring(2)))
                    },
                    {
                        3L,
                        9L,
                        tx(
                                event("tx", "fee", "2uinit"),
                                event("evm", "log", log(TOKEN, B, A, "0x2a", 3).encode()))
                    },
                };
                for (Object[] t : txs) {
                    ps.setLong(1, (Long) t[0]);
                    ps.setLong(2, (Long) t[1]);
                    ps.setBytes(3, (byte[]) t[2]);
                    ps.addBatch();
                }
                ps.executeBatch();
            }
            try (Statement st = c.createStatement()) {
                st.execute(all.stream()
                        .filter(m -> m.version().startsWith("V007"))
                        .findFirst()
                        .orElseThrow()
                        .sql());
            }
            c.commit();
            List<String> rows = new ArrayList<>();
            try (Statement st = c.createStatement();
                    ResultSet r = st.executeQuery("""
               SELECT height, sequence, transfer_index, kind, encode(token, 'hex'), encode(from_address, 'hex'), encode(to_address, 'hex'), amount::text
               FROM fungible_transfer ORDER BY height, sequence, transfer_index""")) {
                while (r.next()) {
                    StringBuilder b = new StringBuilder();
                    for (int i = 1; i <= 8; i++) b.append(i > 1 ? " " : "").append(r.getString(i));
                    rows.add(b.toString());
                }
            }
            String token = TOKEN.toLowerCase();
            assertEquals(
                    List.of(
                            "8 2 0 1 " + token + " " + A + " " + B + " 1000000000000000000",
                            "8 2 1 1 " + token + " " + "00".repeat(20) + " " + A
                                    + " 115792089237316195423570985008687907853269984665640564039457584007913129639935",
                            "9 3 0 1 " + token + " " + B + " " + A + " 42"),
                    rows,
                    "ERC-721 (4 topics), zero amounts, malformed logs and applied heights left out");
            List<String> denoms = new ArrayList<>();
            try (Statement st = c.createStatement();
                    ResultSet r = st.executeQuery("SELECT denom, first_height FROM coin_denom ORDER BY denom")) {
                while (r.next()) denoms.add(r.getString(1) + "@" + r.getLong(2));
            }
            assertEquals(List.of("ibc/ABCDEF@8", "uinit@8"), denoms);
        }
    }
}
