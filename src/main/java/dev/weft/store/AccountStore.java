package dev.weft.store;

import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.Tuple;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Reads about one account: its summary (the exact counters the ingest and tracer commits keep, the NFTs and tokens it
 * holds, its first and last active height), its token balances (the rich list's rows) and its fungible transfers in
 * and out (keyset pages of {@code fungible_transfer}). An address is the bytes the ingest stores (20 bytes for an
 * Initia account). Nothing here counts over the history: counters, the per-owner rows of {@code nft_owner_collection}
 * and {@code rich_list}, and one index probe at each end of the account's tx edges.
 */
public final class AccountStore {
    /**
     * Parameter: the address. Columns: txs, signer_txs, evm_txs, evm_signer_txs, internal_txs, nfts, tokens,
     * first_height, first_time_ns, last_height, last_time_ns, ingest cursor, evm cursor, richlist cursor.
     */
    static final String SUMMARY = """
      SELECT coalesce(s.txs, 0), coalesce(s.signer_txs, 0), coalesce(s.evm_txs, 0), coalesce(s.evm_signer_txs, 0),
             coalesce(i.internal_txs, 0),
             (SELECT coalesce(sum(n.tokens), 0)::bigint FROM nft_owner_collection n WHERE n.owner = $1),
             (SELECT count(*) FROM rich_list r WHERE r.account = $1 AND r.amount > 0),
             e.first_h, (SELECT b.time_ns FROM block b WHERE b.height = e.first_h),
             e.last_h, (SELECT b.time_ns FROM block b WHERE b.height = e.last_h),
             (SELECT height FROM pipeline_cursor WHERE name = 'ingest'),
             (SELECT height FROM pipeline_cursor WHERE name = 'evm'),
             (SELECT height FROM pipeline_cursor WHERE name = 'richlist')
      FROM (SELECT (SELECT id FROM account WHERE address = $1) AS id) a
      LEFT JOIN account_tx_stats s ON s.account_id = a.id
      LEFT JOIN account_internal_tx_stats i ON i.account_id = a.id
      LEFT JOIN LATERAL (SELECT
          least((SELECT t.height FROM tx_account x JOIN tx t ON t.sequence = x.sequence
                 WHERE x.account_id = a.id ORDER BY x.sequence LIMIT 1),
                (SELECT t.height FROM evm_tx_account x JOIN evm_tx t ON t.sequence = x.sequence
                 WHERE x.account_id = a.id ORDER BY x.sequence LIMIT 1),
                (SELECT t.height FROM evm_internal_tx_account x JOIN evm_internal_tx t ON t.sequence = x.sequence
                 WHERE x.account_id = a.id ORDER BY x.sequence LIMIT 1)) AS first_h,
          greatest((SELECT t.height FROM tx_account x JOIN tx t ON t.sequence = x.sequence
                 WHERE x.account_id = a.id ORDER BY x.sequence DESC LIMIT 1),
                (SELECT t.height FROM evm_tx_account x JOIN evm_tx t ON t.sequence = x.sequence
                 WHERE x.account_id = a.id ORDER BY x.sequence DESC LIMIT 1),
                (SELECT t.height FROM evm_internal_tx_account x JOIN evm_internal_tx t ON t.sequence = x.sequence
                 WHERE x.account_id = a.id ORDER BY x.sequence DESC LIMIT 1)) AS last_h) e ON true""";

    /** Parameters: address, offset, limit + 1. Columns: total, token, amount, denom (EVM bank denom, else null), cursor. */
    static final String BALANCES = """
      SELECT c.total, p.contract, p.amount, p.denom, c.height
      FROM (SELECT (SELECT count(*) FROM rich_list r WHERE r.account = $1 AND r.amount > 0) AS total,
                   (SELECT height FROM pipeline_cursor WHERE name = 'richlist') AS height) c
      LEFT JOIN LATERAL (
        SELECT t.contract, r.amount::text AS amount, (SELECT min(d.denom) FROM evm_denom d WHERE d.contract = t.contract) AS denom
        FROM rich_list r JOIN rich_list_token t ON t.id = r.token_id
        WHERE r.account = $1 AND r.amount > 0 ORDER BY t.contract OFFSET $2 LIMIT $3) p ON true
      ORDER BY p.contract""";

    /**
     * Parameters: offset, limit + 1. Columns: total, token, holders, supply (the sum of the positive balances), EVM bank
     * denom (or null), rich-list cursor. Tokens in byte order of their address.
     */
    static final String TOKENS = """
      SELECT c.total, p.contract, p.holders, p.supply, p.denom, c.height
      FROM (SELECT (SELECT count(*) FROM rich_list_token) AS total,
                   (SELECT height FROM pipeline_cursor WHERE name = 'richlist') AS height) c
      LEFT JOIN LATERAL (
        SELECT t.contract, t.holders,
               (SELECT coalesce(sum(r.amount), 0)::text FROM rich_list r WHERE r.token_id = t.id AND r.amount > 0) AS supply,
               (SELECT min(d.denom) FROM evm_denom d WHERE d.contract = t.contract) AS denom
        FROM rich_list_token t ORDER BY t.contract OFFSET $1 LIMIT $2) p ON true
      ORDER BY p.contract""";

    /** One token of the rich list: its address, holder count, supply held and EVM bank denom (or null). */
    public record Token(byte[] token, long holders, String supply, String denom) {}

    /** A page of tokens and the rich-list height they are exact at. */
    public record Tokens(OffsetPage<Token> page, Long height) {}

    /** A counter summary of one account; heights and times null when it has no indexed tx, cursors null when absent. */
    public record Summary(
            long txs,
            long signerTxs,
            long evmTxs,
            long evmSignerTxs,
            long internalTxs,
            long nfts,
            long tokens,
            Long firstHeight,
            Long firstTimeNs,
            Long lastHeight,
            Long lastTimeNs,
            Long ingestHeight,
            Long evmHeight,
            Long richListHeight) {}

    /** One balance: the token (contract or metadata object), the amount in base units, the EVM bank denom if known. */
    public record Balance(byte[] token, String amount, String denom) {}

    /** A page of balances and the rich-list height they are exact at (null before the rich list ran). */
    public record Balances(OffsetPage<Balance> page, Long height) {}

    /** Which side of a transfer the account is on. */
    public enum Direction {
        IN,
        OUT,
        ANY
    }

    /**
     * One transfer query. {@code account} or {@code token} (or both) is set.
     *
     * @param boundSeq   with {@code boundIndex}: the exclusive (sequence, transfer_index) keyset bound, or null for none
     * @param fromHeight inclusive, or null
     * @param toHeight   inclusive, or null
     */
    public record TransferQuery(
            byte[] account,
            Direction direction,
            byte[] token,
            Long fromHeight,
            Long toHeight,
            boolean desc,
            Long boundSeq,
            Integer boundIndex,
            int limit) {}

    /** One transfer row with its tx hash and block time. */
    public record Transfer(
            long height,
            long sequence,
            int index,
            int kind,
            byte[] token,
            byte[] from,
            byte[] to,
            String amount,
            byte[] txHash,
            long timeNs) {}

    /** A keyset page of transfers: the rows and whether more follow. */
    public record TransferPage(List<Transfer> rows, boolean more) {}

    private final Pool pool;
    private final Map<String, String> sqlCache = new ConcurrentHashMap<>();

    public AccountStore(Pool pool) {
        this.pool = pool;
    }

    /** Parameter: the address. Rows: category code, txs (the account's counters; absent categories are 0). */
    static final String CATEGORIES = """
      SELECT c.category, c.txs FROM account_category_stats c
      WHERE c.account_id = (SELECT id FROM account WHERE address = $1)""";

    /** The account's tx count per category code (the ingest commit's counters), only the categories it has txs in. */
    public Future<Map<Short, Long>> categories(byte[] address) {
        return pool.preparedQuery(CATEGORIES)
                .execute(Tuple.of(Buffer.buffer(address)))
                .map(rows -> {
                    Map<Short, Long> out = new java.util.HashMap<>();
                    for (Row r : rows) out.put(r.getShort(0), r.getLong(1));
                    return out;
                });
    }

    public Future<Summary> summary(byte[] address) {
        return pool.preparedQuery(SUMMARY)
                .execute(Tuple.of(Buffer.buffer(address)))
                .map(rows -> {
                    Row r = rows.iterator().next();
                    return new Summary(
                            r.getLong(0),
                            r.getLong(1),
                            r.getLong(2),
                            r.getLong(3),
                            r.getLong(4),
                            r.getLong(5),
                            r.getLong(6),
                            r.getLong(7),
                            r.getLong(8),
                            r.getLong(9),
                            r.getLong(10),
                            r.getLong(11),
                            r.getLong(12),
                            r.getLong(13));
                });
    }

    public Future<Balances> balances(byte[] address, long offset, int limit) {
        return pool.preparedQuery(BALANCES)
                .execute(Tuple.of(Buffer.buffer(address), offset, limit + 1))
                .map(rows -> {
                    long total = 0;
                    Long height = null;
                    List<Balance> out = new ArrayList<>();
                    for (Row r : rows) {
                        total = r.getLong(0);
                        height = r.getLong(4);
                        if (r.getValue(1) == null) continue;
                        out.add(new Balance(r.getBuffer(1).getBytes(), r.getString(2), r.getString(3)));
                    }
                    boolean more = out.size() > limit;
                    if (more) out = out.subList(0, limit);
                    return new Balances(new OffsetPage<>(out, more, total), height);
                });
    }

    public Future<Tokens> tokens(long offset, int limit) {
        return pool.preparedQuery(TOKENS).execute(Tuple.of(offset, limit + 1)).map(rows -> {
            long total = 0;
            Long height = null;
            List<Token> out = new ArrayList<>();
            for (Row r : rows) {
                total = r.getLong(0);
                height = r.getLong(5);
                if (r.getValue(1) == null) continue;
                out.add(new Token(r.getBuffer(1).getBytes(), r.getLong(2), r.getString(3), r.getString(4)));
            }
            boolean more = out.size() > limit;
            if (more) out = out.subList(0, limit);
            return new Tokens(new OffsetPage<>(out, more, total), height);
        });
    }

    public Future<TransferPage> transfers(TransferQuery q) {
        String sql = sqlCache.computeIfAbsent(
                transferKey(q),
                k -> transfersSql(
                        q.account() != null,
                        q.direction(),
                        q.token() != null,
                        q.fromHeight() != null,
                        q.toHeight() != null,
                        q.desc(),
                        q.boundSeq() != null));
        Tuple t = Tuple.tuple();
        if (q.account() != null) t.addValue(Buffer.buffer(q.account()));
        if (q.token() != null) t.addValue(Buffer.buffer(q.token()));
        if (q.fromHeight() != null) t.addValue(q.fromHeight());
        if (q.toHeight() != null) t.addValue(q.toHeight());
        if (q.boundSeq() != null) t.addValue(q.boundSeq()).addValue(q.boundIndex());
        t.addValue(q.limit() + 1);
        return pool.preparedQuery(sql).execute(t).map(rows -> {
            List<Transfer> out = new ArrayList<>();
            for (Row r : rows)
                out.add(new Transfer(
                        r.getLong(0),
                        r.getLong(1),
                        r.getInteger(2),
                        r.getInteger(3),
                        r.getBuffer(4).getBytes(),
                        r.getBuffer(5).getBytes(),
                        r.getBuffer(6).getBytes(),
                        r.getString(7),
                        r.getBuffer(8).getBytes(),
                        r.getLong(9)));
            boolean more = out.size() > q.limit();
            return new TransferPage(more ? out.subList(0, q.limit()) : out, more);
        });
    }

    private static String transferKey(TransferQuery q) {
        return (q.account() != null) + "/" + q.direction() + "/" + (q.token() != null) + "/" + (q.fromHeight() != null)
                + "/" + (q.toHeight() != null) + "/" + q.desc() + "/" + (q.boundSeq() != null);
    }

    /**
     * The SQL of a transfer query shape; parameters in order: account (if any), token (if any), from height, to
     * height (if given), bound sequence and index (if any), limit + 1. An account's transfers in and out are two walks
     * of their own index merged (a self-transfer is one row); a token's alone walk the token index. Public so the
     * benchmark can measure what the API runs.
     */
    public static String transfersSql(
            boolean account,
            Direction direction,
            boolean token,
            boolean fromHeight,
            boolean toHeight,
            boolean desc,
            boolean bound) {
        int p = 1;
        String acc = account ? "$" + p++ + "::bytea" : null;
        String tok = token ? "$" + p++ + "::bytea" : null;
        String fh = fromHeight ? "$" + p++ + "::bigint" : null;
        String th = toHeight ? "$" + p++ + "::bigint" : null;
        String bs = bound ? "$" + p++ + "::bigint" : null;
        String bi = bound ? "$" + p++ + "::int" : null;
        String limit = "$" + p + "::bigint";
        String dir = desc ? "DESC" : "ASC";
        String cmp = desc ? "<" : ">";
        StringBuilder common = new StringBuilder();
        if (tok != null && acc != null) common.append(" AND f.token = ").append(tok);
        // a height bound becomes a sequence bound (transfers carry their tx's sequence, and sequences follow
        // heights): the walk then seeks into its (address or token, sequence) index instead of filtering every newer
        // row down to the bound; one probe of tx's (height, sequence) index each
        if (fh != null)
            common.append(" AND f.sequence >= coalesce((SELECT r.sequence FROM tx r WHERE r.height >= ")
                    .append(fh)
                    .append(" ORDER BY r.height, r.sequence LIMIT 1), ")
                    .append(Long.MAX_VALUE)
                    .append(")");
        if (th != null)
            common.append(" AND f.sequence <= coalesce((SELECT r.sequence FROM tx r WHERE r.height <= ")
                    .append(th)
                    .append(" ORDER BY r.height DESC, r.sequence DESC LIMIT 1), 0)");
        if (bound)
            common.append(" AND (f.sequence, f.transfer_index) ")
                    .append(cmp)
                    .append(" (")
                    .append(bs)
                    .append(", ")
                    .append(bi)
                    .append(")");
        String order = " ORDER BY f.sequence " + dir + ", f.transfer_index " + dir + " LIMIT " + limit;
        String cols = "f.height, f.sequence, f.transfer_index, f.kind, f.token, f.from_address, f.to_address, f.amount";
        String inner;
        if (acc == null) {
            inner = "SELECT " + cols + " FROM fungible_transfer f WHERE f.token = " + tok + common + order;
        } else {
            String out = "(SELECT " + cols + " FROM fungible_transfer f WHERE f.from_address = " + acc + common + order
                    + ")";
            String in =
                    "(SELECT " + cols + " FROM fungible_transfer f WHERE f.to_address = " + acc + common + order + ")";
            inner = switch (direction) {
                case OUT -> out;
                case IN -> in;
                case ANY -> "SELECT * FROM (" + out + " UNION " + in + ") f" + order;
            };
        }
        return "SELECT f.height, f.sequence, f.transfer_index, f.kind, f.token, f.from_address, f.to_address, "
                + "f.amount::text, t.hash, b.time_ns FROM (" + inner + ") f "
                + "JOIN tx t ON t.sequence = f.sequence JOIN block b ON b.height = f.height"
                + " ORDER BY f.sequence " + dir + ", f.transfer_index " + dir;
    }
}
