package dev.weft.bench;

import static dev.weft.testsupport.TestNodes.await;

import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.RowSet;
import io.vertx.sqlclient.Tuple;
import java.util.ArrayList;
import java.util.List;

/**
 * The baseline of the ingest figure: the same rows the indexer wrote, bulk-inserted again into empty copies of the
 * same tables (same indexes, same storage settings) of the same PostgreSQL, with nothing else to do: no node to ask,
 * no JSON to parse or render, dictionary ids already known. Rows are read back chunk by chunk (not timed) and each
 * chunk is written in one transaction of pipelined {@code unnest} inserts (timed), the way ingestion writes (the
 * column arrays zipped by unnest calls in the select list).
 */
final class RawInsertBaseline {
    /**
     * Source table, its copy, the columns and their array types, the height filter of a chunk, and the columns of an
     * index the chunk reads need where the table has none for them (made for the reads, not on the copies, dropped
     * after), or null.
     */
    record Table(String name, String columns, String types, String chunkFilter, String readIndex) {
        Table(String name, String columns, String types, String chunkFilter) {
            this(name, columns, types, chunkFilter, null);
        }
    }

    /** The main rows: the tables the baseline wrote before ingestion wrote transfer rows too. */
    static final List<Table> MAIN = List.of(
            new Table(
                    "block",
                    "height, hash, time, time_ns, block_time_ms, proposer_address, proposer_moniker, proposer_operator, gas_used, gas_wanted, tx_count, evm_tx_count, total_fee, json",
                    "bigint,bytea,timestamptz,bigint,bigint,bytea,text,text,bigint,bigint,int,int,jsonb,bytea",
                    "height BETWEEN $1 AND $2"),
            new Table(
                    "tx",
                    "sequence, height, tx_index, hash, code, signer_id, json",
                    "bigint,bigint,int,bytea,int,bigint,bytea",
                    "height BETWEEN $1 AND $2"),
            new Table(
                    "tx_account",
                    "account_id, sequence, signer",
                    "bigint,bigint,bool",
                    "sequence IN (SELECT sequence FROM tx WHERE height BETWEEN $1 AND $2)",
                    "sequence"),
            new Table(
                    "tx_msg_type",
                    "msg_type_id, sequence",
                    "int,bigint",
                    "sequence IN (SELECT sequence FROM tx WHERE height BETWEEN $1 AND $2)"),
            new Table(
                    "evm_tx",
                    "sequence, height, tx_index, hash, signer_id, json",
                    "bigint,bigint,int,bytea,bigint,bytea",
                    "height BETWEEN $1 AND $2"),
            new Table(
                    "evm_tx_account",
                    "account_id, sequence, signer",
                    "bigint,bigint,bool",
                    "sequence IN (SELECT sequence FROM evm_tx WHERE height BETWEEN $1 AND $2)",
                    "sequence"));
    /** Every row table ingestion writes per tx (the counters and the NFT tables aside): the main ones and the transfers. */
    static final List<Table> ALL = concat(
            MAIN,
            List.of(new Table(
                    "fungible_transfer",
                    "height, sequence, transfer_index, kind, token, from_address, to_address, amount",
                    "bigint,bigint,int,smallint,bytea,bytea,bytea,numeric",
                    "height BETWEEN $1 AND $2")));

    /**
     * Every table ingestion inserts rows into (the counters it updates aside: account, category and message type
     * stats, totals; and the multi-message txs' arrays, 7 bytes per tx): the row tables, the account views' rows (EVM
     * logs, categories), the NFT activity and edges, and the event log's rows of the history.
     */
    static final List<Table> EVERY = concat(
            ALL,
            List.of(
                    new Table(
                            "tx_account_category",
                            "account_id, category, sequence",
                            "bigint,smallint,bigint",
                            "sequence IN (SELECT sequence FROM tx WHERE height BETWEEN $1 AND $2)",
                            "sequence"),
                    new Table(
                            "evm_log",
                            "height, sequence, log_position, address, topic0, topic1, topic2, topic3",
                            "bigint,bigint,int,bytea,bytea,bytea,bytea,bytea",
                            "sequence IN (SELECT sequence FROM evm_tx WHERE height BETWEEN $1 AND $2)"),
                    new Table(
                            "nft_activity",
                            "collection, sequence, position, token_id, kind, account, height",
                            "bytea,bigint,int,text,smallint,bytea,bigint",
                            "height BETWEEN $1 AND $2",
                            "height"),
                    new Table(
                            "tx_nft",
                            "nft_id, sequence",
                            "bigint,bigint",
                            "sequence IN (SELECT sequence FROM tx WHERE height BETWEEN $1 AND $2)",
                            "sequence"),
                    new Table(
                            "event_log",
                            "sequence, chain_id, topic, height, account, tx_hash, transfer, payload, created",
                            "bigint,text,text,bigint,bytea,bytea,text,jsonb,timestamptz",
                            "height BETWEEN $1 AND $2",
                            "height")));

    private static List<Table> concat(List<Table> a, List<Table> b) {
        List<Table> out = new ArrayList<>(a);
        out.addAll(b);
        return List.copyOf(out);
    }

    private RawInsertBaseline() {}

    /** The time spent writing, and the CPU the processes spent meanwhile. */
    record Result(long nanos, CpuShares cpu) {}

    /** Inserts everything again in chunks of {@code chunkBlocks}. */
    static Result run(Pool pool, List<Table> tables, long fromHeight, long toHeight, int chunkBlocks) {
        for (Table t : tables) {
            await(pool.query("DROP TABLE IF EXISTS bench_" + t.name() + "; CREATE TABLE bench_" + t.name() + " (LIKE "
                            + t.name() + " INCLUDING ALL)")
                    .execute());
            // LIKE copies the columns' storage and compression but not the table's storage parameters
            // (toast_tuple_target)
            Row options = await(pool.query("SELECT array_to_string(reloptions, ', ') FROM pg_class WHERE oid = '"
                                    + t.name() + "'::regclass")
                            .execute())
                    .iterator()
                    .next();
            if (options.getString(0) != null && !options.getString(0).isEmpty())
                await(pool.query("ALTER TABLE bench_" + t.name() + " SET (" + options.getString(0) + ")")
                        .execute());
        }
        for (Table t : tables)
            if (t.readIndex() != null)
                await(pool.query("CREATE INDEX bench_read_" + t.name() + " ON " + t.name() + " (" + t.readIndex() + ")")
                        .execute());
        long spent = 0;
        CpuShares cpu = new CpuShares(0, 0, 0, 0, 0);
        for (long from = fromHeight; from <= toHeight; from += chunkBlocks) {
            long to = Math.min(toHeight, from + chunkBlocks - 1);
            List<Tuple> chunk = new ArrayList<>();
            for (Table t : tables) chunk.add(read(pool, t, from, to));
            CpuShares cpuBefore = CpuShares.now(null);
            long start = System.nanoTime();
            await(pool.withTransaction(conn -> {
                List<Future<?>> all = new ArrayList<>();
                for (int i = 0; i < tables.size(); i++)
                    all.add(conn.preparedQuery(insert(tables.get(i))).execute(chunk.get(i)));
                return Future.all(all);
            }));
            spent += System.nanoTime() - start;
            cpu = cpu.plus(CpuShares.now(null).minus(cpuBefore));
        }
        for (Table t : tables) {
            await(pool.query("DROP TABLE bench_" + t.name()).execute());
            if (t.readIndex() != null)
                await(pool.query("DROP INDEX bench_read_" + t.name()).execute());
        }
        return new Result(spent, cpu);
    }

    private static String insert(Table t) {
        String[] types = t.types().split(",");
        StringBuilder columns = new StringBuilder();
        StringBuilder select = new StringBuilder();
        for (int i = 0; i < types.length; i++) {
            boolean asText = types[i].equals("jsonb") || types[i].equals("numeric");
            String wire = asText ? "text" : types[i];
            columns.append(i > 0 ? ", " : "")
                    .append("unnest($")
                    .append(i + 1)
                    .append("::")
                    .append(wire)
                    .append("[]) AS c")
                    .append(i);
            select.append(i > 0 ? ", " : "").append("c").append(i).append(asText ? "::" + types[i] : "");
        }
        return "INSERT INTO bench_" + t.name() + " (" + t.columns() + ") SELECT " + select + " FROM (SELECT " + columns
                + ") AS u";
    }

    /** The chunk's rows of a table as column arrays. */
    private static Tuple read(Pool pool, Table t, long from, long to) {
        RowSet<Row> rows =
                await(pool.preparedQuery("SELECT " + t.columns() + " FROM " + t.name() + " WHERE " + t.chunkFilter())
                        .execute(Tuple.of(from, to)));
        String[] types = t.types().split(",");
        List<List<Object>> cols = new ArrayList<>();
        for (String ignored : types) cols.add(new ArrayList<>());
        for (Row r : rows) for (int i = 0; i < types.length; i++) cols.get(i).add(r.getValue(i));
        Tuple out = Tuple.tuple();
        for (int i = 0; i < types.length; i++) out.addValue(array(types[i], cols.get(i)));
        return out;
    }

    private static Object array(String type, List<Object> col) {
        return switch (type) {
            case "bigint" -> col.toArray(new Long[0]);
            case "int" -> col.toArray(new Integer[0]);
            case "bool" -> col.toArray(new Boolean[0]);
            case "bytea" -> col.toArray(new Buffer[0]);
            case "text" -> col.toArray(new String[0]);
            case "timestamptz" -> col.toArray(new java.time.OffsetDateTime[0]);
            case "smallint" -> col.toArray(new Short[0]);
            // a null stays SQL NULL (String.valueOf would make it the JSON text "null")
            case "jsonb", "numeric" ->
                col.stream().map(v -> v == null ? null : String.valueOf(v)).toArray(String[]::new);
            default -> throw new IllegalArgumentException(type);
        };
    }
}
