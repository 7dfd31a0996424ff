package dev.weft.store;

import io.vertx.sqlclient.Tuple;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiConsumer;

/**
 * The row tables ingestion writes per block, each as the {@code SELECT} that turns a run's column arrays into rows: the
 * ingest commit inserts what it selects ({@link RowTable#insert}), and {@code verify} / {@code reindex}
 * ({@link RangeStore}) digest the same selection and compare it with the stored rows, so both sides of a comparison
 * come from one definition of what a block's rows are.
 */
final class RowTables {
    private RowTables() {}

    /** Which rows of a table belong to one height: its own height column, or the height's tx / EVM tx sequences. */
    enum Scope {
        HEIGHT,
        TX_SEQUENCES,
        EVM_SEQUENCES,
        /**
         * The account edges of the height's txs, found by the accounts the chain's block names ($3): the edge tables
         * have no index by sequence alone (ingestion does not keep one for any query), so an edge row naming an
         * account the block does not involve is not found.
         */
        TX_EDGES,
        EVM_EDGES
    }

    /**
     * One row table: its name, its columns in insert order, its key columns (a prefix of the order its rows are
     * compared in), the selection that builds its rows from a run's arrays, and which rows belong to a height.
     */
    record RowTable(String name, String columns, List<String> key, String select, Scope scope) {
        String insert() {
            return "INSERT INTO " + name + " (" + columns + ")\n" + select;
        }

        /** The key as {@code column=value,…} (no spaces: a mismatch prints as {@code height table key}). */
        String keyText(String alias) {
            List<String> parts = new ArrayList<>();
            for (String k : key) parts.add("'" + k + "=' || " + alias + "." + k);
            return "concat_ws(','" + (parts.isEmpty() ? "" : ", ") + String.join(", ", parts) + ")";
        }

        private String row(String alias) {
            List<String> cols = new ArrayList<>();
            for (String c : columns.split(",")) cols.add(alias + "." + c.strip());
            return "md5(ROW(" + String.join(", ", cols) + ")::text)";
        }

        /** The key and a digest of each row the selection builds, in key order. */
        String rebuiltDigests() {
            return "SELECT " + keyText("r") + ", " + row("r") + " FROM (" + select + ") AS r(" + columns + ") ORDER BY "
                    + String.join(", ", key);
        }

        /** The key and a digest of each stored row of one height, in key order ($1 the height, or $1/$2 a sequence range). */
        String storedDigests() {
            String where = switch (scope) {
                case HEIGHT -> "t.height = $1";
                case TX_SEQUENCES, EVM_SEQUENCES -> "t.sequence BETWEEN $1 AND $2";
                case TX_EDGES, EVM_EDGES -> "t.account_id = ANY($3) AND t.sequence BETWEEN $1 AND $2";
            };
            return "SELECT " + keyText("t") + ", " + row("t") + " FROM " + name + " t WHERE " + where + " ORDER BY "
                    + String.join(", ", key);
        }
    }

    // The row inserts zip their column arrays with unnest calls in the select list (PostgreSQL walks
    // equal-length arrays in step), which streams the rows into the insert. Written as FROM unnest(a, b, …),
    // the function scan first copies every row into a tuplestore, and a run's tx JSON (~900 txs of ~4.8 KB)
    // passed work_mem: a temp file written and read back per commit. On a 50-block run of the tx table:
    // 18.9 ms a statement that way, 15.0 ms this way (100 runs each).
    static final RowTable BLOCK = new RowTable(
            "block",
            "height, hash, time, time_ns, block_time_ms, proposer_address, proposer_moniker, proposer_operator, gas_used, gas_wanted, tx_count, evm_tx_count, total_fee, json",
            List.of("height"),
            """
      SELECT h, hs, timestamptz 'epoch' + (ns / 1000) * interval '1 microsecond', ns, bt, pa, pm, po, gu, gw, tc, ec, tf::jsonb, j
      FROM (SELECT unnest($1::bigint[]) AS h, unnest($2::bytea[]) AS hs, unnest($3::bigint[]) AS ns, unnest($4::bigint[]) AS bt,
                   unnest($5::bytea[]) AS pa, unnest($6::text[]) AS pm, unnest($7::text[]) AS po, unnest($8::bigint[]) AS gu,
                   unnest($9::bigint[]) AS gw, unnest($10::int[]) AS tc, unnest($11::int[]) AS ec, unnest($12::text[]) AS tf,
                   unnest($13::bytea[]) AS j) AS u""",
            Scope.HEIGHT);
    static final RowTable TX = new RowTable(
            "tx",
            "sequence, height, tx_index, hash, code, signer_id, json",
            List.of("sequence"),
            """
      SELECT unnest($1::bigint[]), unnest($2::bigint[]), unnest($3::int[]), unnest($4::bytea[]), unnest($5::int[]),
             unnest($6::bigint[]), unnest($7::bytea[])""",
            Scope.TX_SEQUENCES);
    static final RowTable TX_ACCOUNT = new RowTable(
            "tx_account",
            "account_id, sequence, signer",
            List.of("sequence", "account_id"),
            "SELECT unnest($1::bigint[]), unnest($2::bigint[]), unnest($3::bool[])",
            Scope.TX_EDGES);
    static final RowTable TX_MSG_TYPE = new RowTable(
            "tx_msg_type",
            "msg_type_id, sequence",
            List.of("sequence", "msg_type_id"),
            "SELECT unnest($1::int[]), unnest($2::bigint[])",
            Scope.TX_SEQUENCES);
    static final RowTable TX_MULTI_MSG = new RowTable(
            "tx_multi_msg",
            "sequence, msg_type_ids",
            List.of("sequence"),
            "SELECT u.s, array_agg(u.m ORDER BY u.m) FROM unnest($1::bigint[], $2::int[]) AS u(s, m) GROUP BY u.s",
            Scope.TX_SEQUENCES);
    static final RowTable EVM_TX = new RowTable(
            "evm_tx",
            "sequence, height, tx_index, hash, signer_id, json",
            List.of("sequence"),
            "SELECT unnest($1::bigint[]), unnest($2::bigint[]), unnest($3::int[]), unnest($4::bytea[]), unnest($5::bigint[]), unnest($6::bytea[])",
            Scope.EVM_SEQUENCES);
    static final RowTable EVM_TX_ACCOUNT = new RowTable(
            "evm_tx_account",
            "account_id, sequence, signer",
            List.of("sequence", "account_id"),
            "SELECT unnest($1::bigint[]), unnest($2::bigint[]), unnest($3::bool[])",
            Scope.EVM_EDGES);
    static final RowTable FUNGIBLE_TRANSFER = new RowTable(
            "fungible_transfer",
            "height, sequence, transfer_index, kind, token, from_address, to_address, amount",
            List.of("height", "sequence", "transfer_index"),
            """
      SELECT u.h, u.s, u.i, u.k, u.t, u.f, u.r, u.a::numeric
      FROM unnest($1::bigint[], $2::bigint[], $3::int[], $4::smallint[], $5::bytea[], $6::bytea[], $7::bytea[], $8::text[])
           AS u(h, s, i, k, t, f, r, a)""",
            Scope.HEIGHT);

    // the account views' rows (/indexer/evm/v1/logs; the category counts and filter of an account's txs)
    static final RowTable EVM_LOG = new RowTable(
            "evm_log",
            "height, sequence, log_position, address, topic0, topic1, topic2, topic3",
            List.of("sequence", "log_position"),
            """
      SELECT unnest($1::bigint[]), unnest($2::bigint[]), unnest($3::int[]), unnest($4::bytea[]), unnest($5::bytea[]),
             unnest($6::bytea[]), unnest($7::bytea[]), unnest($8::bytea[])""",
            Scope.EVM_SEQUENCES);
    static final RowTable TX_ACCOUNT_CATEGORY = new RowTable(
            "tx_account_category",
            "account_id, category, sequence",
            List.of("sequence", "account_id", "category"),
            "SELECT unnest($1::bigint[]), unnest($2::smallint[]), unnest($3::bigint[])",
            Scope.TX_EDGES);

    /** Every row table, in the order a block's rows are compared and reported. */
    static final List<RowTable> ALL = List.of(
            BLOCK,
            TX,
            TX_ACCOUNT,
            TX_MSG_TYPE,
            TX_MULTI_MSG,
            TX_ACCOUNT_CATEGORY,
            EVM_TX,
            EVM_TX_ACCOUNT,
            EVM_LOG,
            FUNGIBLE_TRANSFER);

    // the rows it inserts (xmax = 0: not an update of an existing row) are the accounts seen for the first time
    static final String UPSERT_ACCOUNT_STATS = """
      WITH up AS (
        INSERT INTO account_tx_stats AS s (account_id, txs, signer_txs, evm_txs, evm_signer_txs)
        SELECT * FROM unnest($1::bigint[], $2::bigint[], $3::bigint[], $4::bigint[], $5::bigint[])
        ON CONFLICT (account_id) DO UPDATE SET txs = s.txs + EXCLUDED.txs, signer_txs = s.signer_txs + EXCLUDED.signer_txs,
          evm_txs = s.evm_txs + EXCLUDED.evm_txs, evm_signer_txs = s.evm_signer_txs + EXCLUDED.evm_signer_txs
        RETURNING (s.xmax = 0) AS inserted)
      UPDATE view_totals SET accounts = accounts + (SELECT count(*) FROM up WHERE inserted) WHERE id = 1""";
    static final String UPSERT_MSG_TYPE_STATS = """
      INSERT INTO msg_type_stats AS s (msg_type_id, txs) SELECT * FROM unnest($1::int[], $2::bigint[])
      ON CONFLICT (msg_type_id) DO UPDATE SET txs = s.txs + EXCLUDED.txs""";
    static final String UPSERT_CATEGORY_STATS = """
      INSERT INTO account_category_stats AS s (account_id, category, txs)
      SELECT * FROM unnest($1::bigint[], $2::smallint[], $3::bigint[])
      ON CONFLICT (account_id, category) DO UPDATE SET txs = s.txs + EXCLUDED.txs""";

    /** The rows of {@code c}, table by table (a table without rows is left out), with the arrays of each. */
    static void rows(IngestRows c, BiConsumer<RowTable, Tuple> add) {
        add.accept(BLOCK, c.blocks());
        if (c.txCount > 0) {
            add.accept(
                    TX,
                    Tuple.tuple()
                            .addValue(SqlArrays.longs(c.txSeq))
                            .addValue(SqlArrays.longs(c.txHeight))
                            .addValue(SqlArrays.ints(c.txIndex))
                            .addValue(SqlArrays.bufs(c.txHash))
                            .addValue(SqlArrays.ints(c.txCode))
                            .addValue(SqlArrays.longs(c.txSigner))
                            .addValue(SqlArrays.bufs(c.txJson)));
            add.accept(
                    TX_ACCOUNT,
                    Tuple.tuple()
                            .addValue(SqlArrays.longs(c.accId))
                            .addValue(SqlArrays.longs(c.accSeq))
                            .addValue(c.accSigner.toArray(new Boolean[0])));
            if (!c.msgSeq.isEmpty())
                add.accept(
                        TX_MSG_TYPE,
                        Tuple.tuple().addValue(SqlArrays.ints(c.msgTypeId)).addValue(SqlArrays.longs(c.msgSeq)));
            if (!c.multiSeq.isEmpty())
                add.accept(
                        TX_MULTI_MSG,
                        Tuple.tuple().addValue(SqlArrays.longs(c.multiSeq)).addValue(SqlArrays.ints(c.multiTypeId)));
            if (!c.catSeq.isEmpty()) add.accept(TX_ACCOUNT_CATEGORY, c.categories());
        }
        if (c.evmCount > 0) {
            add.accept(
                    EVM_TX,
                    Tuple.tuple()
                            .addValue(SqlArrays.longs(c.evmSeq))
                            .addValue(SqlArrays.longs(c.evmHeight))
                            .addValue(SqlArrays.ints(c.evmIndex))
                            .addValue(SqlArrays.bufs(c.evmHash))
                            .addValue(SqlArrays.longs(c.evmFrom))
                            .addValue(SqlArrays.bufs(c.evmJson)));
            add.accept(
                    EVM_TX_ACCOUNT,
                    Tuple.tuple()
                            .addValue(SqlArrays.longs(c.evmAccId))
                            .addValue(SqlArrays.longs(c.evmAccSeq))
                            .addValue(c.evmAccSigner.toArray(new Boolean[0])));
            if (!c.logSeq.isEmpty()) add.accept(EVM_LOG, c.logs());
        }
        if (!c.transferSeq.isEmpty()) add.accept(FUNGIBLE_TRANSFER, c.transfers());
    }

    /** The counters the rows of {@code c} add: per account (Cosmos and EVM txs, per category) and per message type. */
    static void counters(IngestRows c, BiConsumer<String, Tuple> add) {
        if (!c.typeStats.isEmpty())
            add.accept(
                    UPSERT_MSG_TYPE_STATS,
                    Tuple.tuple()
                            .addValue(SqlArrays.ints(new ArrayList<>(c.typeStats.keySet())))
                            .addValue(SqlArrays.longs(new ArrayList<>(c.typeStats.values()))));
        if (!c.accountStats.isEmpty()) add.accept(UPSERT_ACCOUNT_STATS, c.accountStats());
        if (!c.catSeq.isEmpty()) add.accept(UPSERT_CATEGORY_STATS, c.categoryStats());
    }
}
