package dev.weft.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.node.WeftNode;
import dev.weft.testsupport.Await;
import dev.weft.testsupport.TestConfig;
import dev.weft.testsupport.TestNodes;
import dev.weft.testsupport.WeftExtension;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The CSV exports ({@code format=csv}, {@code Accept: text/csv}) of an account's txs, EVM txs and transfers on a node
 * that indexed the devnet's history, read back with a strict RFC 4180 parser: the same rows, in the same order, as the
 * JSON pages; {@code export.max_rows} cuts an export; small {@code export.page_rows} makes every export many keyset
 * pages.
 */
class CsvExportTest {
    @RegisterExtension
    static final WeftExtension weft = new WeftExtension();

    static final long BLOCKS = 40;
    static final int MAX_ROWS = 6;
    static WebClient client;
    static WeftNode node;
    static int port;
    static String account;

    @BeforeAll
    static void start() {
        client = WebClient.create(weft.vertx());
        TestConfig c = weft.config()
                .roles("devnet", "ingest", "api")
                .set("devnet.mode", "history")
                .set("devnet.history_blocks", BLOCKS)
                .set("devnet.genesis_time", "2025-06-01T00:00:00Z")
                .set("devnet.seed", 11)
                .set("devnet.txs_per_block", 10)
                .set("ingest.poll_interval", "50ms")
                .set("rate_limit.enabled", "false")
                .set("export.max_rows", MAX_ROWS)
                .set("export.page_rows", 2);
        node = weft.start(c);
        port = TestNodes.httpPort(node);
        Await.until("indexed to " + BLOCKS, 120, () -> json("/status").getLong("height") >= BLOCKS);
        account = json("/indexer/tx/v1/evm-txs?pagination.limit=1")
                .getJsonArray("txs")
                .getJsonObject(0)
                .getString("from");
    }

    static JsonObject json(String uri) {
        var r = TestNodes.get(client, port, uri);
        assertEquals(200, r.statusCode(), uri + " → " + r.bodyAsString());
        return r.bodyAsJsonObject();
    }

    /** Every row of a JSON keyset list, following next_key. */
    static List<JsonObject> walk(String uri, String listKey) {
        List<JsonObject> out = new ArrayList<>();
        String sep = uri.contains("?") ? "&" : "?";
        String key = null;
        for (int pages = 0; pages < 10_000; pages++) {
            JsonObject body = json(uri + sep + "pagination.limit=10"
                    + (key == null ? "" : "&pagination.key=" + AccountApiTest.enc(key)));
            body.getJsonArray(listKey).forEach(o -> out.add((JsonObject) o));
            key = body.getJsonObject("pagination").getString("next_key");
            if (key == null) return out;
        }
        throw new AssertionError("no end");
    }

    /** The CSV of {@code uri}: checks status, content type and disposition, parses it strictly. */
    static List<List<String>> csv(String uri, String accept) {
        var req = client.get(port, "127.0.0.1", uri);
        if (accept != null) req.putHeader("accept", accept);
        HttpResponse<Buffer> r = TestNodes.await(req.send());
        assertEquals(200, r.statusCode(), uri + " → " + r.bodyAsString());
        assertEquals("text/csv; charset=utf-8", r.getHeader("content-type"), uri);
        assertTrue(r.getHeader("content-disposition").matches("attachment; filename=\"[a-z0-9-]+\\.csv\""), uri);
        return Rfc4180.parse(r.body().toString(StandardCharsets.UTF_8));
    }

    static List<String> column(List<List<String>> csv, String name) {
        int i = csv.get(0).indexOf(name);
        assertTrue(i >= 0, "column " + name + " in " + csv.get(0));
        List<String> out = new ArrayList<>();
        for (List<String> row : csv.subList(1, csv.size())) {
            assertEquals(csv.get(0).size(), row.size(), "every record has the header's field count");
            out.add(row.get(i));
        }
        return out;
    }

    static List<String> field(List<JsonObject> rows, String name) {
        return rows.stream().map(o -> String.valueOf(o.getValue(name))).toList();
    }

    /** A height range of the account's txs with at least one and at most {@code MAX_ROWS} txs in it. */
    static String smallRange(String list) {
        for (long from = BLOCKS / 2, width = BLOCKS / 2; width >= 1; width /= 2) {
            String q = "from_height=" + from + "&to_height=" + (from + width - 1);
            long total = Long.parseLong(json("/indexer/tx/v1/" + list + "/by_account/" + account + "?" + q)
                    .getJsonObject("pagination")
                    .getString("total"));
            if (total > 0 && total <= MAX_ROWS) return q;
        }
        throw new AssertionError("no small range");
    }

    @Test
    @DisplayName("txs: the CSV has the JSON pages' hashes in their order (filters, both orders); max_rows cuts it")
    void txs() {
        String base = "/indexer/tx/v1/txs/by_account/" + account;
        String range = smallRange("txs");
        for (String q : List.of(range, range + "&pagination.reverse=false", range + "&is_signer=true")) {
            List<JsonObject> rows = walk(base + "?" + q, "txs");
            List<List<String>> csv = csv(base + "?format=csv&" + q, null);
            assertEquals(TxCsv.COSMOS_COLUMNS, csv.get(0));
            assertEquals(field(rows, "txhash"), column(csv, "txhash"), q);
            assertEquals(field(rows, "height"), column(csv, "height"), q);
            assertEquals(field(rows, "timestamp"), column(csv, "timestamp"), q);
        }
        // no range: more txs than max_rows, so the export is the first max_rows of them
        List<JsonObject> all = walk(base, "txs");
        assertTrue(all.size() > MAX_ROWS, "the account has more txs than export.max_rows: " + all.size());
        List<List<String>> cut = csv(base + "?format=CSV", null);
        assertEquals(MAX_ROWS + 1, cut.size());
        assertEquals(field(all, "txhash").subList(0, MAX_ROWS), column(cut, "txhash"));
        // Accept: text/csv, and format=json winning over it
        assertEquals(cut, csv(base, "text/csv"));
        var r = TestNodes.get(client, port, base + "?format=json&pagination.limit=1");
        assertEquals("application/json", r.getHeader("content-type"));
    }

    @Test
    @DisplayName("EVM txs: the CSV has the JSON pages' hashes, decimal heights")
    void evmTxs() {
        String base = "/indexer/tx/v1/evm-txs/by_account/" + account;
        String range = smallRange("evm-txs");
        List<JsonObject> rows = walk(base + "?" + range, "txs");
        List<List<String>> csv = csv(base + "?" + range + "&format=csv", null);
        assertEquals(TxCsv.EVM_COLUMNS, csv.get(0));
        assertEquals(field(rows, "transactionHash"), column(csv, "transaction_hash"));
        assertEquals(
                rows.stream()
                        .map(o -> Long.toString(Long.decode(o.getString("blockNumber"))))
                        .toList(),
                column(csv, "height"));
    }

    @Test
    @DisplayName("transfers: the CSV has the JSON rows field by field, with the direction filter; max_rows cuts it")
    void transfers() {
        String base = "/indexer/account/v1/" + account + "/transfers";
        for (String q : List.of("direction=out", "direction=in&pagination.reverse=false", "")) {
            List<JsonObject> rows = walk(base + "?" + q, "transfers");
            List<List<String>> csv = csv(base + "?format=csv&" + q, null);
            assertEquals(TransferCsv.COLUMNS, csv.get(0));
            int n = Math.min(rows.size(), MAX_ROWS);
            assertTrue(n > 0, q);
            assertEquals(n + 1, csv.size(), q);
            for (String col : TransferCsv.COLUMNS)
                assertEquals(field(rows, col).subList(0, n), column(csv, col), q + " " + col);
        }
    }

    @Test
    @DisplayName("a bad format, or a bad filter of a CSV request, is the JSON 400")
    void badInput() {
        for (String uri : List.of(
                "/indexer/tx/v1/txs/by_account/" + account + "?format=xml",
                "/indexer/tx/v1/evm-txs/by_account/" + account + "?format=",
                "/indexer/account/v1/" + account + "/transfers?format=csvx",
                "/indexer/account/v1/" + account + "/transfers?format=csv&direction=up",
                "/indexer/tx/v1/txs/by_account/" + account + "?format=csv&from_height=x")) {
            var r = TestNodes.get(client, port, uri);
            if (uri.endsWith("format=")) {
                assertEquals(200, r.statusCode(), uri); // an empty value is an absent one
                continue;
            }
            assertEquals(400, r.statusCode(), uri + " → " + r.bodyAsString());
            assertEquals("application/json", r.getHeader("content-type"), uri);
        }
    }

    @Test
    @DisplayName("RFC 4180 fields: quoted when holding a quote, comma, CR or LF; CRLF line ends")
    void escaping() {
        Buffer b = Buffer.buffer();
        CsvExport.line(b, new String[] {"plain", "a,b", "say \"hi\"", "two\nlines", "cr\r", "", null});
        String text = b.toString(StandardCharsets.UTF_8);
        assertEquals("plain,\"a,b\",\"say \"\"hi\"\"\",\"two\nlines\",\"cr\r\",,\r\n", text);
        assertEquals(List.of(List.of("plain", "a,b", "say \"hi\"", "two\nlines", "cr\r", "", "")), Rfc4180.parse(text));
        assertThrows(IllegalArgumentException.class, () -> Rfc4180.parse("a,b\n"));
        assertThrows(IllegalArgumentException.class, () -> Rfc4180.parse("a\"b\r\n"));
    }

    /** A strict RFC 4180 reader: CRLF record ends (the last one too), quoted fields, nothing else accepted. */
    static final class Rfc4180 {
        static List<List<String>> parse(String s) {
            List<List<String>> out = new ArrayList<>();
            List<String> record = new ArrayList<>();
            StringBuilder f = new StringBuilder();
            int i = 0;
            while (i < s.length()) {
                if (s.charAt(i) == '"') {
                    i++;
                    while (true) {
                        if (i >= s.length()) throw new IllegalArgumentException("unterminated quote");
                        char c = s.charAt(i++);
                        if (c != '"') f.append(c);
                        else if (i < s.length() && s.charAt(i) == '"') {
                            f.append('"');
                            i++;
                        } else break;
                    }
                } else {
                    while (i < s.length() && s.charAt(i) != ',' && s.charAt(i) != '\r') {
                        char c = s.charAt(i++);
                        if (c == '"' || c == '\n') throw new IllegalArgumentException("bare " + c + " at " + i);
                        f.append(c);
                    }
                }
                if (i >= s.length()) throw new IllegalArgumentException("record not ended by CRLF");
                char sep = s.charAt(i);
                record.add(f.toString());
                f.setLength(0);
                if (sep == ',') {
                    i++;
                } else if (sep == '\r' && i + 1 < s.length() && s.charAt(i + 1) == '\n') {
                    out.add(record);
                    record = new ArrayList<>();
                    i += 2;
                } else {
                    throw new IllegalArgumentException("unexpected " + (int) sep + " at " + i);
                }
            }
            if (!record.isEmpty()) throw new IllegalArgumentException("record not ended by CRLF");
            return out;
        }
    }
}
