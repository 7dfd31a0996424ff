package dev.weft.store;

import dev.weft.chain.AccountAddress;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.RowSet;
import io.vertx.sqlclient.Tuple;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Reads of NFT collections, tokens and their tx history (the writes are {@link NftWrites}, part of the ingest commit).
 * Collection and token lists are offset pages ordered by height (collections) or token id / height (tokens), each
 * with its exact total in the same round trip: the counters kept by the writes (all collections, a collection's
 * tokens; an owner's tokens and collections from {@code nft_owner_collection}, kept by triggers on {@code nft}), a count
 * of the filtered rows otherwise (a token id filter, a name match).
 * Token ids compare byte-wise ({@code COLLATE "C"}): lexicographic, {@code "9" > "10"}.
 */
public final class NftStore {
    private static final String COLLECTION_COLUMNS = "addr, name, origin_name, creator, height, time_ns, nft_count";
    private static final String ONE = "SELECT " + COLLECTION_COLUMNS + " FROM nft_collection WHERE addr = $1";
    private static final String KNOWN = "SELECT addr, name, creator FROM nft_collection";
    private static final String TOKEN_COLUMNS =
            "n.collection, c.name, c.origin_name, n.object_addr, n.owner, n.token_id, n.uri, n.height, n.time_ns";

    /** A collection as stored; {@code creator} null when unknown. */
    public record Collection(
            byte[] addr, String name, String originName, byte[] creator, long height, long timeNs, long count) {}

    /** A token with its collection's names; {@code object} null outside Move. */
    public record Token(
            byte[] collection,
            String collectionName,
            String collectionOriginName,
            byte[] object,
            byte[] owner,
            String tokenId,
            String uri,
            long height,
            long timeNs) {}

    /** How collections are filtered. */
    public enum CollectionFilter {
        ALL,
        OWNER,
        NAME
    }

    public enum TokenOrder {
        TOKEN_ID,
        HEIGHT
    }

    /** Receives the stored collections (to prime the ingest's metadata cache). */
    public interface KnownCollection {
        void remember(AccountAddress addr, String name, AccountAddress creator);
    }

    private final Pool pool;
    private final Map<String, String> sqlCache = new ConcurrentHashMap<>();

    public NftStore(Pool pool) {
        this.pool = pool;
    }

    public Future<Void> collections(KnownCollection sink) {
        return pool.query(KNOWN).execute().map(rows -> {
            for (Row r : rows) {
                Buffer creator = r.getBuffer(2);
                sink.remember(
                        AccountAddress.of(r.getBuffer(0).getBytes()),
                        r.getString(1),
                        creator == null || (creator.length() != 20 && creator.length() != 32)
                                ? null
                                : AccountAddress.of(creator.getBytes()));
            }
            return null;
        });
    }

    /** One collection, or null. */
    public Future<Collection> collection(byte[] addr) {
        return pool.preparedQuery(ONE)
                .execute(Tuple.of(Buffer.buffer(addr)))
                .map(rows ->
                        rows.size() == 0 ? null : collection(rows.iterator().next(), 0));
    }

    /**
     * A page of collections, by height (then address) in the page's direction.
     *
     * @param key the owner's address bytes (OWNER) or the normalised name (NAME); null for ALL
     */
    public Future<OffsetPage<Collection>> collections(
            CollectionFilter filter, Object key, boolean desc, long offset, int limit, boolean countTotal) {
        String sql = sqlCache.computeIfAbsent(
                "c/" + filter + "/" + desc + "/" + countTotal, k -> collectionsSql(filter, desc, countTotal));
        Tuple t = Tuple.tuple();
        if (filter != CollectionFilter.ALL) t.addValue(key instanceof byte[] b ? Buffer.buffer(b) : key);
        t.addValue(offset).addValue(limit + 1);
        return pool.preparedQuery(sql).execute(t).map(rows -> page(rows, limit, r -> collection(r, 1)));
    }

    static String collectionsSql(CollectionFilter f, boolean desc, boolean countTotal) {
        String dir = desc ? "DESC" : "ASC";
        String where = switch (f) {
            case ALL -> "";
            case OWNER ->
                " WHERE addr IN (SELECT collection FROM nft_owner_collection WHERE owner = $1 AND tokens > 0)";
            case NAME -> " WHERE search LIKE '%' || $1::text || '%'";
        };
        String total = !countTotal
                ? "0"
                : switch (f) {
                    case ALL -> "(SELECT collections FROM nft_totals)";
                    case OWNER -> "(SELECT count(*) FROM nft_owner_collection WHERE owner = $1 AND tokens > 0)";
                    case NAME -> "(SELECT count(*) FROM nft_collection" + where + ")";
                };
        int p = f == CollectionFilter.ALL ? 1 : 2;
        return "SELECT t.total::bigint, p.* FROM (SELECT " + total + " AS total) t LEFT JOIN LATERAL (SELECT "
                + COLLECTION_COLUMNS
                + " FROM nft_collection" + where + " ORDER BY height " + dir + ", addr " + dir + " OFFSET $" + p
                + "::bigint LIMIT $"
                + (p + 1) + "::bigint) p ON true ORDER BY p.height " + dir + ", p.addr " + dir;
    }

    /**
     * A page of tokens of an owner (optionally in one collection and/or with one token id), or of a collection
     * (optionally one token id).
     *
     * @param owner      the owner's address bytes, or null for a collection's tokens
     * @param collection the collection (required without an owner), or null
     * @param tokenId    a token id filter, or null
     * @param after      a crafted rollytics cursor {@code {"height","token_id"}}: rows past it in the row-value comparison
     *                   {@code (height, token_id)} (below it when {@code desc}), as rollytics does; null for none
     */
    public Future<OffsetPage<Token>> tokens(
            byte[] owner,
            byte[] collection,
            String tokenId,
            TokenOrder order,
            boolean desc,
            TokenCursor after,
            long offset,
            int limit,
            boolean countTotal) {
        String shape = "t/" + (owner != null) + "/" + (collection != null) + "/" + (tokenId != null) + "/" + order + "/"
                + desc + "/" + countTotal + "/" + (after != null);
        String sql = sqlCache.computeIfAbsent(
                shape,
                k -> tokensSql(
                        owner != null, collection != null, tokenId != null, order, desc, countTotal, after != null));
        Tuple t = Tuple.tuple();
        if (owner != null) t.addValue(Buffer.buffer(owner));
        if (collection != null) t.addValue(Buffer.buffer(collection));
        if (tokenId != null) t.addValue(tokenId);
        if (after != null) t.addValue(after.height()).addValue(after.tokenId());
        t.addValue(offset).addValue(limit + 1);
        return pool.preparedQuery(sql).execute(t).map(rows -> page(rows, limit, NftStore::token));
    }

    /** A crafted keyset cursor of the token lists. */
    public record TokenCursor(long height, String tokenId) {}

    /** The SQL of a token page (public so the benchmark runs exactly what the API runs). */
    public static String tokensSql(
            boolean byOwner,
            boolean byCollection,
            boolean byTokenId,
            TokenOrder order,
            boolean desc,
            boolean countTotal,
            boolean keyset) {
        String dir = desc ? "DESC" : "ASC";
        List<String> where = new ArrayList<>();
        int p = 1;
        if (byOwner) where.add("n.owner = $" + p++);
        if (byCollection) where.add("n.collection = $" + p++);
        if (byTokenId) where.add("n.token_id = $" + p++ + "::text");
        String cond = " WHERE " + String.join(" AND ", where);
        String pageCond = cond;
        if (keyset) {
            pageCond += " AND (n.height, n.token_id) " + (desc ? "<" : ">") + " ($" + p + "::bigint, $" + (p + 1)
                    + "::text)";
            p += 2;
        }
        String orderBy = order == TokenOrder.TOKEN_ID
                ? "n.token_id " + dir + ", n.height " + dir + ", n.collection " + dir
                : "n.height " + dir + ", n.token_id " + dir + ", n.collection " + dir;
        String total;
        if (!countTotal) total = "0";
        else if (!byOwner && !byTokenId) total = "coalesce((SELECT nft_count FROM nft_collection WHERE addr = $1), 0)";
        else if (!byTokenId && !byCollection)
            total = "coalesce((SELECT sum(tokens) FROM nft_owner_collection WHERE owner = $1), 0)";
        else if (!byTokenId)
            total = "coalesce((SELECT tokens FROM nft_owner_collection WHERE owner = $1 AND collection = $2), 0)";
        else total = "(SELECT count(*) FROM nft n" + cond + ")";
        String outerOrder = orderBy.replace("n.", "p.");
        return "SELECT t.total::bigint, p.* FROM (SELECT " + total + " AS total) t LEFT JOIN LATERAL (SELECT "
                + TOKEN_COLUMNS
                + " FROM nft n JOIN nft_collection c ON c.addr = n.collection" + pageCond + " ORDER BY " + orderBy
                + " OFFSET $" + p + "::bigint LIMIT $" + (p + 1) + "::bigint) p ON true ORDER BY " + outerOrder;
    }

    /**
     * A page of the txs of a token (mint, transfers, URI changes, burn), by sequence: the JSON of each tx, keyset
     * paged like the tx lists, with the exact count. An unknown token gives an empty page.
     *
     * @param objectTxs Move: also every tx involving the live token's object address (its involved accounts), as
     *                  rollytics builds a Move token's history; a burnt token (no live object) keeps its NFT changes
     */
    public Future<BlockStore.Page> txs(
            byte[] collection,
            String tokenId,
            boolean objectTxs,
            boolean desc,
            long bound,
            long offset,
            int limit,
            boolean countTotal) {
        String sql = sqlCache.computeIfAbsent(
                "x/" + objectTxs + "/" + desc + "/" + countTotal, k -> txsSql(objectTxs, desc, countTotal));
        return pool.preparedQuery(sql)
                .execute(Tuple.of(Buffer.buffer(collection), tokenId, bound, offset, limit + 1))
                .map(rows -> BlockStore.toPage(rows, limit));
    }

    static String txsSql(boolean objectTxs, boolean desc, boolean countTotal) {
        String dir = desc ? "DESC" : "ASC";
        String cmp = desc ? "<" : ">";
        String id = "(SELECT id FROM nft_key WHERE collection = $1 AND token_id = $2::text)";
        if (objectTxs) {
            String s = "WITH s AS (SELECT l.sequence FROM tx_nft l WHERE l.nft_id = " + id
                    + " UNION SELECT ta.sequence FROM nft n JOIN account ac ON ac.address = n.object_addr"
                    + " JOIN tx_account ta ON ta.account_id = ac.id WHERE n.collection = $1 AND n.token_id = $2::text) ";
            return s + "SELECT t.total::bigint, p.sequence, p.json FROM (SELECT "
                    + (countTotal ? "(SELECT count(*) FROM s)" : "0")
                    + " AS total) t LEFT JOIN LATERAL (SELECT x.sequence, x.json FROM s JOIN tx x ON x.sequence = s.sequence WHERE s.sequence "
                    + cmp + " $3::bigint ORDER BY s.sequence " + dir
                    + " OFFSET $4::bigint LIMIT $5::bigint) p ON true ORDER BY p.sequence " + dir;
        }
        String total = countTotal ? "(SELECT count(*) FROM tx_nft WHERE nft_id = " + id + ")" : "0";
        return "SELECT t.total::bigint, p.sequence, p.json FROM (SELECT " + total + " AS total) t LEFT JOIN LATERAL ("
                + "SELECT x.sequence, x.json FROM tx_nft l JOIN tx x ON x.sequence = l.sequence WHERE l.nft_id = " + id
                + " AND l.sequence " + cmp + " $3::bigint ORDER BY l.sequence " + dir
                + " OFFSET $4::bigint LIMIT $5::bigint) p ON true"
                + " ORDER BY p.sequence " + dir;
    }

    private static <T> OffsetPage<T> page(RowSet<Row> rows, int limit, java.util.function.Function<Row, T> map) {
        long total = 0;
        List<T> out = new ArrayList<>();
        for (Row r : rows) {
            Long t = r.getLong(0);
            total = t == null ? 0 : t;
            if (r.getValue(1) == null) continue;
            out.add(map.apply(r));
        }
        boolean more = out.size() > limit;
        return new OffsetPage<>(more ? out.subList(0, limit) : out, more, total);
    }

    private static Collection collection(Row r, int from) {
        Buffer creator = r.getBuffer(from + 3);
        return new Collection(
                r.getBuffer(from).getBytes(),
                r.getString(from + 1),
                r.getString(from + 2),
                creator == null ? null : creator.getBytes(),
                r.getLong(from + 4),
                r.getLong(from + 5),
                r.getLong(from + 6));
    }

    private static Token token(Row r) {
        Buffer object = r.getBuffer(4);
        return new Token(
                r.getBuffer(1).getBytes(),
                r.getString(2),
                r.getString(3),
                object == null ? null : object.getBytes(),
                r.getBuffer(5).getBytes(),
                r.getString(6),
                r.getString(7),
                r.getLong(8),
                r.getLong(9));
    }
}
