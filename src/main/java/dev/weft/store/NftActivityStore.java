package dev.weft.store;

import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.Tuple;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads of the NFT activity rows ({@code nft_activity}, written by {@link NftWrites} in the ingest commit, V021): a
 * token's mint, a collection's creation tx, and a collection's changes as keyset pages by (sequence, position). A
 * change's previous owner (a transfer's or burn's {@code from}) is the owner the token's previous mint or transfer
 * left, one probe of the token index per row.
 */
public final class NftActivityStore {
    /** Kind codes as V021 stores them. */
    public static final short MINT = 1;

    public static final short TRANSFER = 2;
    public static final short BURN = 3;
    public static final short URI = 4;

    /** A token's latest mint: the tx, its signer, the owner it minted to, the block. */
    public record Mint(long height, long timeNs, byte[] txHash, byte[] minter, byte[] owner, byte[] object) {}

    /** A collection's creation: creator (null when unknown), height, time, tx hash (null when not known). */
    public record Creation(byte[] creator, long height, long timeNs, byte[] txHash) {}

    /** One change; {@code from}/{@code to} null where the kind has none or it is not known. */
    public record Activity(
            long sequence,
            int position,
            long height,
            long timeNs,
            byte[] txHash,
            String tokenId,
            short kind,
            byte[] from,
            byte[] to,
            byte[] object) {}

    public record ActivityPage(List<Activity> rows, boolean more) {}

    /** Whether a token was ever seen (an nft_key row), and its latest mint row if one is indexed. */
    public record MintLookup(boolean known, Mint mint) {}

    static final String MINT_SQL = """
      SELECT k.id, m.height, b.time_ns, t.hash, sa.address, m.account, n.object_addr
      FROM (SELECT id FROM nft_key WHERE collection = $1 AND token_id = $2) k
      LEFT JOIN LATERAL (
        SELECT a.height, a.sequence, a.account FROM nft_activity a
        WHERE a.collection = $1 AND a.token_id = $2 AND a.kind = 1
        ORDER BY a.sequence DESC, a.position DESC LIMIT 1) m ON true
      LEFT JOIN block b ON b.height = m.height
      LEFT JOIN tx t ON t.sequence = m.sequence
      LEFT JOIN account sa ON sa.id = t.signer_id
      LEFT JOIN nft n ON n.collection = $1 AND n.token_id = $2""";

    static final String CREATION_SQL = """
      SELECT c.creator, c.height, c.time_ns, t.hash FROM nft_collection c
      LEFT JOIN tx t ON t.sequence = c.sequence WHERE c.addr = $1""";

    private final Pool pool;

    public NftActivityStore(Pool pool) {
        this.pool = pool;
    }

    public Future<MintLookup> mint(byte[] collection, String tokenId) {
        return pool.preparedQuery(MINT_SQL)
                .execute(Tuple.of(Buffer.buffer(collection), tokenId))
                .map(rows -> {
                    if (!rows.iterator().hasNext()) return new MintLookup(false, null);
                    Row r = rows.iterator().next();
                    if (r.getValue(1) == null) return new MintLookup(true, null);
                    return new MintLookup(
                            true,
                            new Mint(r.getLong(1), r.getLong(2), bytes(r, 3), bytes(r, 4), bytes(r, 5), bytes(r, 6)));
                });
    }

    /** The collection's creation, or null when the collection is not indexed. */
    public Future<Creation> creation(byte[] collection) {
        return pool.preparedQuery(CREATION_SQL)
                .execute(Tuple.of(Buffer.buffer(collection)))
                .map(rows -> {
                    if (!rows.iterator().hasNext()) return null;
                    Row r = rows.iterator().next();
                    return new Creation(bytes(r, 0), r.getLong(1), r.getLong(2), bytes(r, 3));
                });
    }

    /** Whether the collection is indexed. */
    public Future<Boolean> collectionExists(byte[] collection) {
        return pool.preparedQuery("SELECT 1 FROM nft_collection WHERE addr = $1")
                .execute(Tuple.of(Buffer.buffer(collection)))
                .map(rows -> rows.size() > 0);
    }

    /**
     * A page of a collection's changes (of one token when {@code tokenId} is given), newest first when {@code desc},
     * after the exclusive bound (sequence, position) when given.
     */
    public Future<ActivityPage> activities(
            byte[] collection, String tokenId, boolean desc, Long boundSeq, Integer boundPos, int limit) {
        Tuple t = Tuple.of(Buffer.buffer(collection));
        if (tokenId != null) t.addValue(tokenId);
        if (boundSeq != null) t.addValue(boundSeq).addValue(boundPos);
        t.addValue(limit + 1);
        return pool.preparedQuery(activitiesSql(tokenId != null, boundSeq != null, desc))
                .execute(t)
                .map(rows -> {
                    List<Activity> out = new ArrayList<>();
                    for (Row r : rows) {
                        short kind = r.getShort(6);
                        byte[] account = bytes(r, 7);
                        byte[] previous = bytes(r, 8);
                        out.add(new Activity(
                                r.getLong(0),
                                r.getInteger(1),
                                r.getLong(2),
                                r.getLong(3),
                                bytes(r, 4),
                                r.getString(5),
                                kind,
                                kind == TRANSFER || kind == BURN ? previous : null,
                                kind == MINT || kind == TRANSFER ? account : null,
                                bytes(r, 9)));
                    }
                    boolean more = out.size() > limit;
                    return new ActivityPage(more ? out.subList(0, limit) : out, more);
                });
    }

    /**
     * The SQL of an activity page; parameters: collection, token id (if filtered), bound sequence and position (if
     * any), limit + 1. Public so the benchmark measures what the API runs.
     */
    public static String activitiesSql(boolean token, boolean bound, boolean desc) {
        int p = 2;
        String dir = desc ? "DESC" : "ASC";
        StringBuilder where = new StringBuilder("a.collection = $1");
        if (token) where.append(" AND a.token_id = $").append(p++);
        if (bound) {
            where.append(" AND (a.sequence, a.position) ")
                    .append(desc ? "<" : ">")
                    .append(" ($")
                    .append(p)
                    .append("::bigint, $")
                    .append(p + 1)
                    .append("::int)");
            p += 2;
        }
        String order = " ORDER BY a.sequence " + dir + ", a.position " + dir;
        return "SELECT a.sequence, a.position, a.height, b.time_ns, t.hash, a.token_id, a.kind, a.account, "
                + "(SELECT q.account FROM nft_activity q WHERE q.collection = a.collection AND q.token_id = a.token_id"
                + " AND q.kind IN (1, 2) AND (q.sequence, q.position) < (a.sequence, a.position)"
                + " ORDER BY q.sequence DESC, q.position DESC LIMIT 1), n.object_addr"
                + " FROM (SELECT * FROM nft_activity a WHERE " + where + order + " LIMIT $" + p + "::bigint) a"
                + " JOIN block b ON b.height = a.height JOIN tx t ON t.sequence = a.sequence"
                + " LEFT JOIN nft n ON n.collection = a.collection AND n.token_id = a.token_id"
                + order;
    }

    private static byte[] bytes(Row r, int i) {
        Buffer b = r.getBuffer(i);
        return b == null ? null : b.getBytes();
    }
}
