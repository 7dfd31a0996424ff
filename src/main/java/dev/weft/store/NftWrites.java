package dev.weft.store;

import dev.weft.chain.AccountAddress;
import dev.weft.model.nft.NftFold;
import io.vertx.core.buffer.Buffer;
import io.vertx.sqlclient.Tuple;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;
import java.util.function.Function;

/**
 * The NFT part of an ingest commit: the statements of a run's {@link NftFold}, sent in the same pipelined burst (and
 * transaction) as the run's blocks and txs, after them. Order matters and is: collections, token keys, tx links (by
 * key, then Move objects through the stored tokens, before anything is deleted), deletes, mints, then changes to
 * tokens minted earlier. Collection counts move with the rows actually inserted and deleted, so they stay exact.
 */
final class NftWrites {
    /** EVM: height, time and creator of a collection are those of the earliest indexed tx touching the contract. */
    private static final String NEW_COLLECTIONS_EVM = """
      WITH i AS (
        INSERT INTO nft_collection (addr, name, search, creator, height, time_ns, sequence)
        SELECT u.a, u.n, u.s, COALESCE(f.signer, u.c, u.fb), COALESCE(f.height, u.h), COALESCE(f.time_ns, u.t),
               COALESCE(f.sequence, u.q)
        FROM unnest($1::bytea[], $2::text[], $3::text[], $4::bytea[], $5::bytea[], $6::bigint[], $7::bigint[], $8::bigint[])
             AS u(a, n, s, c, fb, h, t, q)
        LEFT JOIN LATERAL (
          SELECT x.height, b.time_ns, sa.address AS signer, x.sequence
          FROM account ac JOIN tx_account ta ON ta.account_id = ac.id JOIN tx x ON x.sequence = ta.sequence
          JOIN block b ON b.height = x.height LEFT JOIN account sa ON sa.id = x.signer_id
          WHERE ac.address = u.a ORDER BY ta.sequence LIMIT 1) f ON true
        WHERE NOT EXISTS (SELECT 1 FROM nft_collection e WHERE e.addr = u.a)
        ON CONFLICT (addr) DO NOTHING RETURNING 1)
      UPDATE nft_totals SET collections = collections + (SELECT count(*) FROM i) WHERE id = 1""";
    /** Move and Wasm: the block that created (or first showed) the collection; the creator its event or contract names. */
    private static final String NEW_COLLECTIONS = """
      WITH i AS (
        INSERT INTO nft_collection (addr, name, search, creator, height, time_ns, sequence)
        SELECT u.a, u.n, u.s, u.c, u.h, u.t, u.q
        FROM unnest($1::bytea[], $2::text[], $3::text[], $4::bytea[], $5::bytea[], $6::bigint[], $7::bigint[], $8::bigint[])
             AS u(a, n, s, c, fb, h, t, q)
        ON CONFLICT (addr) DO NOTHING RETURNING 1)
      UPDATE nft_totals SET collections = collections + (SELECT count(*) FROM i) WHERE id = 1""";

    private static final String NEW_KEYS = """
      INSERT INTO nft_key (collection, token_id)
      SELECT u.c, u.t FROM unnest($1::bytea[], $2::text[]) AS u(c, t) ORDER BY u.c, u.t ON CONFLICT DO NOTHING""";
    private static final String LINKS = """
      INSERT INTO tx_nft (nft_id, sequence)
      SELECT k.id, u.s FROM unnest($1::bytea[], $2::text[], $3::bigint[]) AS u(c, t, s)
      JOIN nft_key k ON k.collection = u.c AND k.token_id = u.t
      ON CONFLICT DO NOTHING""";
    private static final String OBJECT_LINKS = """
      INSERT INTO tx_nft (nft_id, sequence)
      SELECT k.id, u.s FROM unnest($1::bytea[], $2::bigint[]) AS u(o, s)
      JOIN nft n ON n.object_addr = u.o JOIN nft_key k ON k.collection = n.collection AND k.token_id = n.token_id
      ON CONFLICT DO NOTHING""";
    /**
     * The run's token changes, after its collections and before anything is deleted; a mint's owner as {@link #MINTS}
     * gives it. Rows already written (a block committed again) are kept.
     */
    private static final String ACTIVITIES = """
      INSERT INTO nft_activity (collection, sequence, position, token_id, kind, account, height)
      SELECT u.c, u.s, u.p, u.t, u.k, CASE WHEN u.k = 1 THEN COALESCE(u.a, c.creator, u.fb) ELSE u.a END, u.h
      FROM unnest($1::bytea[], $2::text[], $3::bigint[], $4::int[], $5::smallint[], $6::bytea[], $7::bytea[], $8::bigint[])
           AS u(c, t, s, p, k, a, fb, h)
      JOIN nft_collection c ON c.addr = u.c
      ON CONFLICT DO NOTHING""";
    /** Changes to a Move object the run does not name: through the stored token of that object (as the links). */
    private static final String OBJECT_ACTIVITIES = """
      INSERT INTO nft_activity (collection, sequence, position, token_id, kind, account, height)
      SELECT n.collection, u.s, u.p, n.token_id, u.k, u.a, u.h
      FROM unnest($1::bytea[], $2::bigint[], $3::int[], $4::smallint[], $5::bytea[], $6::bigint[]) AS u(o, s, p, k, a, h)
      JOIN nft n ON n.object_addr = u.o
      ON CONFLICT DO NOTHING""";

    private static final String COUNT_DOWN = """
      UPDATE nft_collection c SET nft_count = c.nft_count - x.k
      FROM (SELECT collection, count(*) AS k FROM d GROUP BY collection) x WHERE c.addr = x.collection""";
    private static final String DELETE_KEYS = """
      WITH d AS (DELETE FROM nft n USING unnest($1::bytea[], $2::text[]) AS u(c, t)
                 WHERE n.collection = u.c AND n.token_id = u.t RETURNING n.collection)
      """ + COUNT_DOWN;
    private static final String DELETE_OBJECTS = """
      WITH d AS (DELETE FROM nft n USING unnest($1::bytea[]) AS u(o) WHERE n.object_addr = u.o RETURNING n.collection)
      """ + COUNT_DOWN;
    private static final String COUNT_UP = """
      UPDATE nft_collection c SET nft_count = c.nft_count + x.k
      FROM (SELECT collection, count(*) AS k FROM i WHERE inserted GROUP BY collection) x WHERE c.addr = x.collection""";
    /** A mint's owner when the event names none (Move mints to the collection's creator): the creator, else the signer. */
    private static final String MINTS = """
      WITH i AS (
        INSERT INTO nft (collection, token_id, object_addr, owner, uri, height, time_ns)
        SELECT u.c, u.t, u.o, COALESCE(u.ow, c.creator, u.fb, '\\x'::bytea), u.uri, u.h, u.tm
        FROM unnest($1::bytea[], $2::text[], $3::bytea[], $4::bytea[], $5::bytea[], $6::text[], $7::bigint[], $8::bigint[])
             AS u(c, t, o, ow, fb, uri, h, tm)
        JOIN nft_collection c ON c.addr = u.c
        ON CONFLICT (collection, token_id) DO UPDATE SET object_addr = EXCLUDED.object_addr, owner = EXCLUDED.owner,
          uri = EXCLUDED.uri, height = EXCLUDED.height, time_ns = EXCLUDED.time_ns
        RETURNING collection, xmax = 0 AS inserted)
      """ + COUNT_UP;

    private static final String UPDATE_KEYS = """
      UPDATE nft n SET owner = COALESCE(u.ow, n.owner), uri = COALESCE(u.uri, n.uri), height = u.h, time_ns = u.tm
      FROM unnest($1::bytea[], $2::text[], $3::bytea[], $4::text[], $5::bigint[], $6::bigint[]) AS u(c, t, ow, uri, h, tm)
      WHERE n.collection = u.c AND n.token_id = u.t""";
    /**
     * A transfer of a token minted before the indexed history (ingestion started mid-chain): the token exists, with the
     * URI the chain gave at the transfer.
     */
    private static final String INSERT_MISSING = """
      WITH i AS (
        INSERT INTO nft (collection, token_id, object_addr, owner, uri, height, time_ns)
        SELECT u.c, u.t, NULL, u.ow, COALESCE(u.uri, u.su, ''), u.h, u.tm
        FROM unnest($1::bytea[], $2::text[], $3::bytea[], $4::text[], $5::bigint[], $6::bigint[], $7::text[]) AS u(c, t, ow, uri, h, tm, su)
        JOIN nft_collection c ON c.addr = u.c
        WHERE u.ow IS NOT NULL
        ON CONFLICT (collection, token_id) DO NOTHING
        RETURNING collection, true AS inserted)
      """ + COUNT_UP;

    private static final String UPDATE_OBJECTS = """
      UPDATE nft n SET owner = COALESCE(u.ow, n.owner), uri = COALESCE(u.uri, n.uri), height = u.h, time_ns = u.tm
      FROM unnest($1::bytea[], $2::bytea[], $3::text[], $4::bigint[], $5::bigint[]) AS u(o, ow, uri, h, tm)
      WHERE n.object_addr = u.o""";

    /** After the run's collections: the origin names of collections received over ICS-721, by name (as rollytics). */
    private static final String ORIGIN_NAMES = """
      UPDATE nft_collection c SET origin_name = u.o, search = u.s
      FROM unnest($1::text[], $2::text[], $3::text[]) AS u(n, o, s) WHERE c.name = u.n""";

    private NftWrites() {}

    /** Adds the statements of a run's NFT changes to a commit burst (nothing when the run has none). */
    static void add(NftFold f, boolean evm, BiConsumer<String, Tuple> sink) {
        if (f.isEmpty()) return;
        if (!f.collections.isEmpty()) {
            List<NftFold.Collection> c = f.collections;
            sink.accept(
                    evm ? NEW_COLLECTIONS_EVM : NEW_COLLECTIONS,
                    Tuple.tuple()
                            .addValue(addrs(c, NftFold.Collection::addr))
                            .addValue(texts(c, NftFold.Collection::name))
                            .addValue(texts(c, NftFold.Collection::search))
                            .addValue(addrs(c, NftFold.Collection::creator))
                            .addValue(addrs(c, NftFold.Collection::fallbackCreator))
                            .addValue(longs(c, NftFold.Collection::height))
                            .addValue(longs(c, NftFold.Collection::timeNs))
                            .addValue(longs(c, NftFold.Collection::sequence)));
        }
        if (!f.keys.isEmpty()) {
            List<NftFold.Key> k = List.copyOf(f.keys);
            sink.accept(
                    NEW_KEYS,
                    Tuple.tuple().addValue(addrs(k, NftFold.Key::collection)).addValue(texts(k, NftFold.Key::tokenId)));
        }
        if (!f.links.isEmpty()) {
            List<NftFold.Link> l = f.links;
            sink.accept(
                    LINKS,
                    Tuple.tuple()
                            .addValue(addrs(l, x -> x.key().collection()))
                            .addValue(texts(l, x -> x.key().tokenId()))
                            .addValue(longs(l, NftFold.Link::sequence)));
        }
        if (!f.objectLinks.isEmpty()) {
            List<NftFold.ObjectLink> l = f.objectLinks;
            sink.accept(
                    OBJECT_LINKS,
                    Tuple.tuple()
                            .addValue(addrs(l, NftFold.ObjectLink::object))
                            .addValue(longs(l, NftFold.ObjectLink::sequence)));
        }
        if (!f.activities.isEmpty()) {
            List<NftFold.Activity> a = f.activities;
            sink.accept(
                    ACTIVITIES,
                    Tuple.tuple()
                            .addValue(addrs(a, x -> x.key().collection()))
                            .addValue(texts(a, x -> x.key().tokenId()))
                            .addValue(longs(a, NftFold.Activity::sequence))
                            .addValue(ints(a, NftFold.Activity::position))
                            .addValue(kinds(a))
                            .addValue(addrs(a, NftFold.Activity::account))
                            .addValue(addrs(a, NftFold.Activity::signer))
                            .addValue(longs(a, NftFold.Activity::height)));
        }
        if (!f.objectActivities.isEmpty()) {
            List<NftFold.Activity> a = f.objectActivities;
            sink.accept(
                    OBJECT_ACTIVITIES,
                    Tuple.tuple()
                            .addValue(addrs(a, NftFold.Activity::object))
                            .addValue(longs(a, NftFold.Activity::sequence))
                            .addValue(ints(a, NftFold.Activity::position))
                            .addValue(kinds(a))
                            .addValue(addrs(a, NftFold.Activity::account))
                            .addValue(longs(a, NftFold.Activity::height)));
        }
        if (!f.deleteKeys.isEmpty()) {
            sink.accept(
                    DELETE_KEYS,
                    Tuple.tuple()
                            .addValue(addrs(f.deleteKeys, NftFold.Key::collection))
                            .addValue(texts(f.deleteKeys, NftFold.Key::tokenId)));
        }
        if (!f.deleteObjects.isEmpty())
            sink.accept(DELETE_OBJECTS, Tuple.tuple().addValue(addrs(f.deleteObjects, a -> a)));
        if (!f.mints.isEmpty()) {
            List<NftFold.Row> m = f.mints;
            sink.accept(
                    MINTS,
                    Tuple.tuple()
                            .addValue(addrs(m, NftFold.Row::collection))
                            .addValue(texts(m, NftFold.Row::tokenId))
                            .addValue(addrs(m, NftFold.Row::object))
                            .addValue(addrs(m, NftFold.Row::owner))
                            .addValue(addrs(m, NftFold.Row::fallbackOwner))
                            .addValue(texts(m, NftFold.Row::uri))
                            .addValue(longs(m, NftFold.Row::height))
                            .addValue(longs(m, NftFold.Row::timeNs)));
        }
        if (!f.partialKeys.isEmpty()) {
            List<NftFold.Partial> p = f.partialKeys;
            java.util.function.Supplier<Tuple> t = () -> Tuple.tuple()
                    .addValue(addrs(p, x -> x.key().collection()))
                    .addValue(texts(p, x -> x.key().tokenId()))
                    .addValue(addrs(p, NftFold.Partial::owner))
                    .addValue(texts(p, NftFold.Partial::uri))
                    .addValue(longs(p, NftFold.Partial::height))
                    .addValue(longs(p, NftFold.Partial::timeNs));
            sink.accept(UPDATE_KEYS, t.get());
            sink.accept(INSERT_MISSING, t.get().addValue(texts(p, NftFold.Partial::seenUri)));
        }
        if (!f.partialObjects.isEmpty()) {
            List<NftFold.Partial> p = f.partialObjects;
            sink.accept(
                    UPDATE_OBJECTS,
                    Tuple.tuple()
                            .addValue(addrs(p, NftFold.Partial::object))
                            .addValue(addrs(p, NftFold.Partial::owner))
                            .addValue(texts(p, NftFold.Partial::uri))
                            .addValue(longs(p, NftFold.Partial::height))
                            .addValue(longs(p, NftFold.Partial::timeNs)));
        }
        if (!f.originNames.isEmpty()) {
            List<Map.Entry<String, String>> o = List.copyOf(f.originNames.entrySet());
            sink.accept(
                    ORIGIN_NAMES,
                    Tuple.tuple()
                            .addValue(texts(o, Map.Entry::getKey))
                            .addValue(texts(o, Map.Entry::getValue))
                            .addValue(texts(o, x -> NftFold.search(x.getKey(), x.getValue()))));
        }
    }

    private static <T> Buffer[] addrs(List<T> l, Function<T, AccountAddress> f) {
        Buffer[] out = new Buffer[l.size()];
        for (int i = 0; i < out.length; i++) {
            AccountAddress a = f.apply(l.get(i));
            out[i] = a == null ? null : SqlArrays.bytea(a.bytes());
        }
        return out;
    }

    private static <T> String[] texts(List<T> l, Function<T, String> f) {
        String[] out = new String[l.size()];
        for (int i = 0; i < out.length; i++) out[i] = f.apply(l.get(i));
        return out;
    }

    private static <T> Integer[] ints(List<T> l, Function<T, Integer> f) {
        Integer[] out = new Integer[l.size()];
        for (int i = 0; i < out.length; i++) out[i] = f.apply(l.get(i));
        return out;
    }

    /** The stored code of each activity's kind (see V021): 1 mint, 2 transfer, 3 burn, 4 URI change. */
    private static Short[] kinds(List<NftFold.Activity> l) {
        Short[] out = new Short[l.size()];
        for (int i = 0; i < out.length; i++) out[i] = activityCode(l.get(i).kind());
        return out;
    }

    static short activityCode(dev.weft.model.nft.NftEvent.Kind k) {
        return switch (k) {
            case MINT -> 1;
            case TRANSFER -> 2;
            case BURN -> 3;
            case URI -> 4;
            default -> throw new IllegalArgumentException("no activity for " + k);
        };
    }

    private static <T> Long[] longs(List<T> l, Function<T, Long> f) {
        Long[] out = new Long[l.size()];
        for (int i = 0; i < out.length; i++) out[i] = f.apply(l.get(i));
        return out;
    }
}
