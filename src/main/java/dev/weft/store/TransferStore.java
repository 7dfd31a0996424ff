package dev.weft.store;

import dev.weft.model.track.Hop;
import dev.weft.model.track.Transfer;
import dev.weft.model.track.TransferState;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.RowSet;
import io.vertx.sqlclient.SqlClient;
import io.vertx.sqlclient.Tuple;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Tracked transfers ({@code track_transfer}), their hops ({@code track_hop}) and the tracker's per-chain scan
 * cursors ({@code track_cursor}). API nodes register transfers and read them; the tracker (single writer) loads the
 * open ones, picks up newly registered ones (the {@code armed} flag) and saves a poll cycle's changes, hops and
 * cursors in one transaction.
 */
public final class TransferStore {
    private static final String OPEN = "('STATE_SUBMITTED', 'STATE_PENDING', 'STATE_PENDING_ERROR')";
    private static final String COLUMNS =
            "id, chain_id, tx_hash, state, tx, (extract(epoch FROM progress_at) * 1000)::bigint";

    private final Pool pool;

    public TransferStore(Pool pool) {
        this.pool = pool;
    }

    /** A transfer as stored: the model, its stored state and last progress time (ms). */
    public record Stored(Transfer transfer, TransferState state, long progressAtMillis) {}

    /**
     * The outcome of a registration: the transfer's id, whether it is new or an abandoned one tracked again, and then the
     * sequence of its {@code transfers} event ({@code STATE_SUBMITTED}, written in the same transaction; null otherwise).
     */
    public record Registration(long id, boolean created, boolean rearmed, Long sequence) {}

    /** A state a tracked transfer went through, to write as a {@code transfers} event with the save that records it. */
    public record Announced(String chainId, String txHash, String state) {}

    /** The event key of a tracked transfer: {@code <chain id>/<tx hash>} (the hash as tracked). */
    public static String transferKey(String chainId, String txHash) {
        return chainId + "/" + txHash;
    }

    /**
     * The {@code transfers} events of states, in order, from parallel arrays (chain, hash, hash bytes or null, key,
     * payload): answers whether each was written (in input order) and the sequences of those written, in order.
     *
     * <p>Idempotent by what the event describes, a transfer reaching a state: a state its transfer already reached
     * since its last {@code STATE_SUBMITTED} (its current tracking, which a re-tracked abandoned transfer starts anew)
     * is not written again. So a save whose commit went through but whose answer was lost, saved again with the next
     * cycle, adds no event twice. Rows are inserted in input order, so sequences follow it.
     */
    private static final String INSERT_EVENTS = """
      WITH v AS (
        SELECT v.*, v.state = 'STATE_SUBMITTED' OR NOT EXISTS (
                 SELECT 1 FROM event_log e
                 WHERE e.transfer = v.transfer AND e.payload->>'state' = v.state
                   AND e.sequence > coalesce((SELECT max(s.sequence) FROM event_log s WHERE s.transfer = v.transfer
                                              AND s.payload->>'state' = 'STATE_SUBMITTED'), 0)) AS keep
        FROM (SELECT u.*, u.payload::jsonb->>'state' AS state
              FROM unnest($1::text[], $2::bytea[], $3::text[], $4::text[]) WITH ORDINALITY
                   AS u(chain_id, tx_hash, transfer, payload, n)) v),
      ins AS (
        INSERT INTO event_log (chain_id, topic, tx_hash, transfer, payload)
        SELECT chain_id, 'transfers', tx_hash, transfer, payload::jsonb FROM v WHERE keep ORDER BY n
        RETURNING sequence)
      SELECT (SELECT array_agg(keep ORDER BY n) FROM v), (SELECT array_agg(sequence ORDER BY sequence) FROM ins)""";

    /** Each input's sequence, in input order: null for a state not written again ({@link #INSERT_EVENTS}). */
    private static List<Long> sequencesOf(io.vertx.sqlclient.RowSet<Row> rows) {
        Row r = rows.iterator().next();
        Boolean[] keep = r.getArrayOfBooleans(0);
        Long[] written = r.getValue(1) == null ? new Long[0] : r.getArrayOfLongs(1);
        List<Long> out = new java.util.ArrayList<>(keep.length);
        int w = 0;
        for (Boolean k : keep) out.add(Boolean.TRUE.equals(k) ? written[w++] : null);
        return out;
    }

    private static Tuple events(List<Announced> announced) {
        int n = announced.size();
        String[] chains = new String[n];
        io.vertx.core.buffer.Buffer[] hashes = new io.vertx.core.buffer.Buffer[n];
        String[] keys = new String[n];
        String[] payloads = new String[n];
        for (int i = 0; i < n; i++) {
            Announced a = announced.get(i);
            chains[i] = a.chainId();
            hashes[i] = dev.weft.chain.Hex.isHex(a.txHash(), 32)
                    ? SqlArrays.bytea(dev.weft.chain.Hex.decode(a.txHash()))
                    : null;
            keys[i] = transferKey(a.chainId(), a.txHash());
            payloads[i] = new JsonObject()
                    .put("tx_hash", a.txHash())
                    .put("chain_id", a.chainId())
                    .put("state", a.state())
                    .encode();
        }
        return Tuple.tuple().addValue(chains).addValue(hashes).addValue(keys).addValue(payloads);
    }

    /** A chain's scan cursor: the last height scanned and its block time (ns). */
    public record Cursor(long height, long timeNanos) {}

    /**
     * Registers {@code (chain, hash)}: a new row (SUBMITTED, armed), nothing for a transfer already tracked, and for an
     * ABANDONED one the state SUBMITTED again, armed, with its progress clock reset.
     */
    public Future<Registration> register(String chainId, String hash) {
        return pool.withTransaction(c -> c.preparedQuery(
                        "INSERT INTO track_transfer (chain_id, tx_hash, state) VALUES ($1, $2, 'STATE_SUBMITTED') "
                                + "ON CONFLICT (chain_id, tx_hash) DO UPDATE SET state = 'STATE_SUBMITTED', armed = true, progress_at = now(), updated_at = now() "
                                + "WHERE track_transfer.state = 'STATE_ABANDONED' RETURNING id, (xmax = 0) AS created")
                .execute(Tuple.of(chainId, hash))
                .compose(rows -> {
                    if (rows.size() == 0)
                        return c.preparedQuery("SELECT id FROM track_transfer WHERE chain_id = $1 AND tx_hash = $2")
                                .execute(Tuple.of(chainId, hash))
                                .map(r -> new Registration(r.iterator().next().getLong(0), false, false, null));
                    Row r = rows.iterator().next();
                    long id = r.getLong(0);
                    boolean created = r.getBoolean(1);
                    // the new state's event in the same transaction, under the lock that orders sequences
                    return c.preparedQuery(EventStore.LOCK)
                            .execute()
                            .compose(x -> c.preparedQuery(INSERT_EVENTS)
                                    .execute(events(List.of(new Announced(chainId, hash, "STATE_SUBMITTED")))))
                            .map(ev -> new Registration(
                                    id, created, !created, sequencesOf(ev).get(0)));
                }));
    }

    /** A tracked transfer with its hops, or null. */
    /** How many transfers are followed now (SUBMITTED, PENDING, PENDING_ERROR). */
    public Future<Long> countOpen() {
        return pool.query("SELECT count(*) FROM track_transfer WHERE state IN " + OPEN)
                .execute()
                .map(rows -> rows.iterator().next().getLong(0));
    }

    public Future<Stored> find(String chainId, String hash) {
        return pool.preparedQuery("SELECT " + COLUMNS + " FROM track_transfer WHERE chain_id = $1 AND tx_hash = $2")
                .execute(Tuple.of(chainId, hash))
                .compose(rows -> rows.size() == 0
                        ? Future.succeededFuture(null)
                        : withHops(pool, rows).map(l -> l.get(0)));
    }

    /** The tracked transfers of these ids with their hops, in the order of the ids (an id not found is left out). */
    public Future<List<Stored>> byIds(List<Long> ids) {
        if (ids.isEmpty()) return Future.succeededFuture(List.of());
        return pool.preparedQuery("SELECT " + COLUMNS + " FROM track_transfer WHERE id = ANY($1)")
                .execute(Tuple.of(ids.toArray(new Long[0])))
                .compose(rows -> withHops(pool, rows))
                .map(found -> {
                    Map<Long, Stored> byId = new LinkedHashMap<>();
                    for (Stored s : found) byId.put(s.transfer().id, s);
                    List<Stored> out = new ArrayList<>();
                    for (Long id : ids) if (byId.containsKey(id)) out.add(byId.get(id));
                    return out;
                });
    }

    /** Every open transfer (at the tracker's start), clearing their armed flags. */
    public Future<List<Stored>> loadOpen() {
        return pool.withTransaction(
                c -> c.query("UPDATE track_transfer SET armed = false WHERE armed AND state IN " + OPEN)
                        .execute()
                        .compose(x -> c.query("SELECT " + COLUMNS + " FROM track_transfer WHERE state IN " + OPEN
                                        + " ORDER BY id")
                                .execute())
                        .compose(rows -> withHops(c, rows)));
    }

    /**
     * Completed transfers still missing the receipt of an acknowledged packet, whose last progress is at or after
     * {@code sinceMillis}: the tracker keeps searching for such a receipt after the transfer completed, across a restart.
     */
    public Future<List<Stored>> loadUnreceived(long sinceMillis) {
        return pool.withTransaction(c -> c.preparedQuery("SELECT " + COLUMNS + " FROM track_transfer t "
                        + "WHERE state IN ('STATE_COMPLETED_SUCCESS', 'STATE_COMPLETED_ERROR') AND progress_at >= to_timestamp($1 / 1000.0) "
                        + "AND EXISTS (SELECT 1 FROM track_hop h WHERE h.transfer_id = t.id AND h.kind = 'IBC' "
                        + "AND coalesce(jsonb_typeof(h.data -> 'acknowledge_tx'), 'null') <> 'null' "
                        + "AND coalesce(jsonb_typeof(h.data -> 'receive_tx'), 'null') = 'null') ORDER BY id")
                .execute(Tuple.of(sinceMillis))
                .compose(rows -> withHops(c, rows)));
    }

    /** When the tracker last saved a cycle (the latest update of its cursors, ms), or null when it keeps none. */
    public Future<Long> lastSaveMillis() {
        return pool.query("SELECT (extract(epoch FROM max(updated_at)) * 1000)::bigint FROM track_cursor")
                .execute()
                .map(rows -> rows.iterator().next().getLong(0));
    }

    /** Transfers registered or re-armed since the last call (at most {@code limit}), clearing their armed flags. */
    public Future<List<Stored>> takeArmed(int limit) {
        return pool.withTransaction(c -> c.preparedQuery("UPDATE track_transfer SET armed = false WHERE id IN "
                        + "(SELECT id FROM track_transfer WHERE armed ORDER BY id LIMIT $1 FOR UPDATE SKIP LOCKED) RETURNING "
                        + COLUMNS)
                .execute(Tuple.of(limit))
                .compose(rows -> withHops(c, rows)));
    }

    private static Future<List<Stored>> withHops(SqlClient c, RowSet<Row> rows) {
        Map<Long, Stored> byId = new LinkedHashMap<>();
        for (Row r : rows) {
            Transfer t = new Transfer(r.getLong(0), r.getString(1), r.getString(2));
            t.restoreTx((JsonObject) r.getValue(4));
            TransferState state = TransferState.valueOf(r.getString(3));
            if (state == TransferState.STATE_ABANDONED) t.abandon();
            byId.put(t.id, new Stored(t, state, r.getLong(5)));
        }
        if (byId.isEmpty()) return Future.succeededFuture(List.of());
        return c.preparedQuery(
                        "SELECT transfer_id, flow_index, hop_index, kind, state, from_chain_id, to_chain_id, data FROM track_hop "
                                + "WHERE transfer_id = ANY($1) ORDER BY transfer_id, flow_index, hop_index")
                .execute(Tuple.of(byId.keySet().toArray(new Long[0])))
                .map(hops -> {
                    for (Row h : hops) {
                        byId.get(h.getLong(0))
                                .transfer()
                                .addHop(Hop.fromRow(
                                        h.getInteger(1),
                                        h.getInteger(2),
                                        h.getString(3),
                                        h.getString(4),
                                        h.getString(5),
                                        h.getString(6),
                                        (JsonObject) h.getValue(7)));
                    }
                    return new ArrayList<>(byId.values());
                });
    }

    public Future<Map<String, Cursor>> cursors() {
        return pool.query("SELECT chain_id, height, time_nanos FROM track_cursor")
                .execute()
                .map(rows -> {
                    Map<String, Cursor> out = new LinkedHashMap<>();
                    for (Row r : rows) out.put(r.getString(0), new Cursor(r.getLong(1), r.getLong(2)));
                    return out;
                });
    }

    /** A transfer to save: its model, its state and its last progress time (ms). */
    public record Save(Transfer transfer, TransferState state, long progressAtMillis) {}

    /**
     * Saves a poll cycle in one transaction: the changed transfers (state, tx, progress) and all their hops (bulk
     * {@code unnest} writes), the cursors of the chains scanned, and no cursor for chains no longer polled.
     */
    public Future<Void> save(List<Save> transfers, Map<String, Cursor> cursors, List<String> droppedCursors) {
        return save(transfers, cursors, droppedCursors, List.of()).mapEmpty();
    }

    /**
     * {@link #save(List, Map, List)} with the states the transfers went through as {@code transfers} events, written last
     * in the same transaction: answers their sequences, in order (null for a state its transfer had already reached:
     * a save repeated after its answer was lost writes no event twice).
     */
    public Future<List<Long>> save(
            List<Save> transfers, Map<String, Cursor> cursors, List<String> droppedCursors, List<Announced> announced) {
        if (transfers.isEmpty() && cursors.isEmpty() && droppedCursors.isEmpty() && announced.isEmpty())
            return Future.succeededFuture(List.of());
        int n = transfers.size();
        Long[] ids = new Long[n];
        String[] states = new String[n];
        String[] txs = new String[n];
        Long[] progress = new Long[n];
        List<Long> hopTransfer = new ArrayList<>();
        List<Integer> hopFlow = new ArrayList<>();
        List<Integer> hopIndex = new ArrayList<>();
        List<String> hopKind = new ArrayList<>();
        List<String> hopState = new ArrayList<>();
        List<String> hopFrom = new ArrayList<>();
        List<String> hopTo = new ArrayList<>();
        List<String> hopData = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            Save s = transfers.get(i);
            ids[i] = s.transfer().id;
            states[i] = s.state().name();
            JsonObject tx = s.transfer().txJson();
            txs[i] = tx == null ? null : tx.encode();
            progress[i] = s.progressAtMillis();
            for (Hop h : s.transfer().hops()) {
                hopTransfer.add(s.transfer().id);
                hopFlow.add(h.flow);
                hopIndex.add(h.index);
                hopKind.add(h.kind.name());
                hopState.add(h.state());
                hopFrom.add(h.fromChain);
                hopTo.add(h.toChain);
                hopData.add(h.toJson().encode());
            }
        }
        String[] cursorChains = cursors.keySet().toArray(new String[0]);
        Long[] cursorHeights = cursors.values().stream().map(Cursor::height).toArray(Long[]::new);
        Long[] cursorTimes = cursors.values().stream().map(Cursor::timeNanos).toArray(Long[]::new);
        return pool.withTransaction(c -> {
            Future<?> f = n == 0
                    ? Future.succeededFuture()
                    : c.preparedQuery(
                                    "UPDATE track_transfer t SET state = u.state, tx = u.tx::jsonb, "
                                            + "progress_at = to_timestamp(u.progress / 1000.0), updated_at = now() "
                                            + "FROM unnest($1::bigint[], $2::text[], $3::text[], $4::bigint[]) AS u(id, state, tx, progress) WHERE t.id = u.id")
                            .execute(Tuple.of(ids, states, txs, progress));
            if (!hopTransfer.isEmpty()) {
                f = f.compose(x -> c.preparedQuery(
                                "INSERT INTO track_hop (transfer_id, flow_index, hop_index, kind, state, from_chain_id, to_chain_id, data) "
                                        + "SELECT u.t, u.f, u.i, u.k, u.s, u.fc, u.tc, u.d::jsonb FROM unnest($1::bigint[], $2::int[], $3::int[], $4::text[], "
                                        + "$5::text[], $6::text[], $7::text[], $8::text[]) AS u(t, f, i, k, s, fc, tc, d) "
                                        + "ON CONFLICT (transfer_id, flow_index, hop_index) DO UPDATE SET state = EXCLUDED.state, data = EXCLUDED.data, updated_at = now()")
                        .execute(Tuple.tuple()
                                .addValue(hopTransfer.toArray(new Long[0]))
                                .addValue(hopFlow.toArray(new Integer[0]))
                                .addValue(hopIndex.toArray(new Integer[0]))
                                .addValue(hopKind.toArray(new String[0]))
                                .addValue(hopState.toArray(new String[0]))
                                .addValue(hopFrom.toArray(new String[0]))
                                .addValue(hopTo.toArray(new String[0]))
                                .addValue(hopData.toArray(new String[0]))));
            }
            if (cursorChains.length > 0) {
                f = f.compose(x -> c.preparedQuery(
                                "INSERT INTO track_cursor (chain_id, height, time_nanos) "
                                        + "SELECT * FROM unnest($1::text[], $2::bigint[], $3::bigint[]) "
                                        + "ON CONFLICT (chain_id) DO UPDATE SET height = EXCLUDED.height, time_nanos = EXCLUDED.time_nanos, updated_at = now()")
                        .execute(Tuple.of(cursorChains, cursorHeights, cursorTimes)));
            }
            if (!droppedCursors.isEmpty()) {
                f = f.compose(x -> c.preparedQuery("DELETE FROM track_cursor WHERE chain_id = ANY($1)")
                        .execute(Tuple.of(droppedCursors.toArray(new String[0]))));
            }
            if (announced.isEmpty()) return f.map(x -> List.<Long>of());
            return f.compose(x -> c.preparedQuery(EventStore.LOCK).execute())
                    .compose(x -> c.preparedQuery(INSERT_EVENTS).execute(events(announced)))
                    .map(TransferStore::sequencesOf);
        });
    }
}
