package dev.weft.store;

import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.SqlConnection;
import io.vertx.sqlclient.Tuple;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Watched addresses ({@code track_watch}: per client, chain and account bytes) and the tracked txs found for them
 * ({@code track_watch_tx}). API nodes add, read and delete watches; the tracker loads them and links the txs it
 * registers for them.
 */
public final class WatchStore {
    /** Serialises additions, so the per-client and total bounds hold under concurrent requests (any constant key). */
    private static final long ADD_LOCK = 0x5765667457617463L;

    private final Pool pool;

    public WatchStore(Pool pool) {
        this.pool = pool;
    }

    /** A client's watch: chain, account bytes, creation time. */
    public record Watch(String chainId, byte[] address, OffsetDateTime createdAt) {}

    /**
     * One watched account (whoever watches it), when it was first watched (ms) and the lowest chain head recorded when
     * it was watched ({@code fromHeight}; null when no watch of it has one: made before V022, or the head was unknown).
     */
    public record Watched(String chainId, byte[] address, long sinceMillis, Long fromHeight) {}

    /** The outcome of {@link #add}: the watch, whether it is new, or which bound refused it (then watch is null). */
    public record Added(Watch watch, boolean created, String refused) {}

    /** A tracked tx to link to a watched account: the chain, the account, the tx's hash and height. */
    public record Link(String chainId, byte[] address, String txHash, long height) {}

    /** A tracked transfer found for an account: its id and its tx's height (the keyset of the listing). */
    public record Found(long transferId, long height) {}

    /**
     * Adds a watch unless the client has one already (then answers it, not created). Refused ({@code refused} =
     * {@code "client"} or {@code "total"}) when the client has {@code maxPerClient} watches or all clients together
     * {@code maxTotal}. {@code fromHeight}: the chain's head as the watch is made (null when unknown), the block its
     * transfers are looked for from.
     */
    public Future<Added> add(
            String client, String chainId, byte[] address, Long fromHeight, int maxPerClient, int maxTotal) {
        Tuple key = Tuple.of(client, chainId, SqlArrays.bytea(address));
        return pool.withTransaction(c -> c.preparedQuery("SELECT pg_advisory_xact_lock($1)")
                .execute(Tuple.of(ADD_LOCK))
                .compose(x -> c.preparedQuery("SELECT created_at FROM track_watch "
                                + "WHERE client = $1 AND chain_id = $2 AND address = $3")
                        .execute(key))
                .compose(rows -> {
                    if (rows.size() > 0)
                        return Future.succeededFuture(new Added(
                                new Watch(
                                        chainId, address, rows.iterator().next().getOffsetDateTime(0)),
                                false,
                                null));
                    return c.preparedQuery("SELECT count(*) FILTER (WHERE client = $1), count(*) FROM track_watch")
                            .execute(Tuple.of(client))
                            .compose(counts -> {
                                Row n = counts.iterator().next();
                                if (n.getLong(0) >= maxPerClient)
                                    return Future.succeededFuture(new Added(null, false, "client"));
                                if (n.getLong(1) >= maxTotal)
                                    return Future.succeededFuture(new Added(null, false, "total"));
                                return c.preparedQuery(
                                                "INSERT INTO track_watch (client, chain_id, address, from_height) "
                                                        + "VALUES ($1, $2, $3, $4) RETURNING created_at")
                                        .execute(Tuple.of(client, chainId, SqlArrays.bytea(address), fromHeight))
                                        .map(r -> new Added(
                                                new Watch(
                                                        chainId,
                                                        address,
                                                        r.iterator().next().getOffsetDateTime(0)),
                                                true,
                                                null));
                            });
                }));
    }

    /** The client's watch of that account, or null. */
    public Future<Watch> find(String client, String chainId, byte[] address) {
        return pool.preparedQuery(
                        "SELECT created_at FROM track_watch WHERE client = $1 AND chain_id = $2 AND address = $3")
                .execute(Tuple.of(client, chainId, SqlArrays.bytea(address)))
                .map(rows -> rows.size() == 0
                        ? null
                        : new Watch(chainId, address, rows.iterator().next().getOffsetDateTime(0)));
    }

    /** The client's watches, oldest first, at most {@code limit}. */
    public Future<List<Watch>> list(String client, int limit) {
        return pool.preparedQuery("SELECT chain_id, address, created_at FROM track_watch WHERE client = $1 "
                        + "ORDER BY created_at, chain_id, address LIMIT $2")
                .execute(Tuple.of(client, limit))
                .map(rows -> {
                    List<Watch> out = new ArrayList<>();
                    for (Row r : rows)
                        out.add(new Watch(r.getString(0), r.getBuffer(1).getBytes(), r.getOffsetDateTime(2)));
                    return out;
                });
    }

    /** Deletes the client's watch of that account: whether there was one. */
    public Future<Boolean> delete(String client, String chainId, byte[] address) {
        return pool.preparedQuery("DELETE FROM track_watch WHERE client = $1 AND chain_id = $2 AND address = $3")
                .execute(Tuple.of(client, chainId, SqlArrays.bytea(address)))
                .map(r -> r.rowCount() > 0);
    }

    /** Every watched account (of any client), with when it was first watched; at most {@code limit}. */
    public Future<List<Watched>> watched(int limit) {
        return pool.preparedQuery("SELECT chain_id, address, (extract(epoch FROM min(created_at)) * 1000)::bigint, "
                        + "min(from_height) FROM track_watch GROUP BY chain_id, address ORDER BY 3 LIMIT $1")
                .execute(Tuple.of(limit))
                .map(rows -> {
                    List<Watched> out = new ArrayList<>();
                    for (Row r : rows)
                        out.add(new Watched(r.getString(0), r.getBuffer(1).getBytes(), r.getLong(2), r.getLong(3)));
                    return out;
                });
    }

    /**
     * Links tracked txs to the accounts they were found for (bulk; a link made before is kept, not repeated) and, in the
     * same transaction, saves the EVM read positions ({@code evmCursors}: chain → next block to read) the links were
     * found up to: a position is saved exactly when what was found below it is.
     */
    public Future<Void> link(List<Link> links, Map<String, Long> evmCursors) {
        if (links.isEmpty() && evmCursors.isEmpty()) return Future.succeededFuture();
        if (links.isEmpty()) return pool.withTransaction(c -> saveCursors(c, evmCursors));
        int n = links.size();
        String[] chains = new String[n];
        Buffer[] addresses = new Buffer[n];
        String[] hashes = new String[n];
        Long[] heights = new Long[n];
        for (int i = 0; i < n; i++) {
            Link l = links.get(i);
            chains[i] = l.chainId();
            addresses[i] = SqlArrays.bytea(l.address());
            hashes[i] = l.txHash();
            heights[i] = l.height();
        }
        return pool.withTransaction(
                c -> c.preparedQuery("INSERT INTO track_watch_tx (chain_id, address, height, transfer_id) "
                                + "SELECT u.c, u.a, u.h, t.id FROM unnest($1::text[], $2::bytea[], $3::text[], $4::bigint[]) "
                                + "AS u(c, a, x, h) JOIN track_transfer t ON t.chain_id = u.c AND t.tx_hash = u.x "
                                + "ON CONFLICT DO NOTHING")
                        .execute(Tuple.of(chains, addresses, hashes, heights))
                        .compose(x -> saveCursors(c, evmCursors)));
    }

    /** Upserts the positions given, deletes those given as null (chains no longer followed). */
    private static Future<Void> saveCursors(SqlConnection c, Map<String, Long> cursors) {
        List<String> chains = new ArrayList<>();
        List<Long> heights = new ArrayList<>();
        List<String> gone = new ArrayList<>();
        cursors.forEach((chain, h) -> {
            if (h == null) gone.add(chain);
            else {
                chains.add(chain);
                heights.add(h);
            }
        });
        Future<?> f = chains.isEmpty()
                ? Future.succeededFuture()
                : c.preparedQuery("INSERT INTO track_evm_cursor (chain_id, next_height) "
                                + "SELECT * FROM unnest($1::text[], $2::bigint[]) ON CONFLICT (chain_id) "
                                + "DO UPDATE SET next_height = EXCLUDED.next_height, updated_at = now()")
                        // each array one parameter (a Long[] alone would spread into the varargs)
                        .execute(Tuple.of(chains.toArray(new String[0]), (Object) heights.toArray(new Long[0])));
        if (!gone.isEmpty())
            f = f.compose(x -> c.preparedQuery("DELETE FROM track_evm_cursor WHERE chain_id = ANY($1)")
                    .execute(Tuple.of((Object) gone.toArray(new String[0]))));
        return f.mapEmpty();
    }

    /** The saved EVM read positions: chain → next block to read for the OFTSent logs of its watched accounts. */
    public Future<Map<String, Long>> evmCursors() {
        return pool.query("SELECT chain_id, next_height FROM track_evm_cursor")
                .execute()
                .map(rows -> {
                    Map<String, Long> out = new java.util.LinkedHashMap<>();
                    for (Row r : rows) out.put(r.getString(0), r.getLong(1));
                    return out;
                });
    }

    /**
     * The transfers found for an account, newest first (height, then id, descending), at most {@code limit}, after the
     * keyset {@code (beforeHeight, beforeId)} when given.
     */
    public Future<List<Found>> found(String chainId, byte[] address, Long beforeHeight, Long beforeId, int limit) {
        String after = beforeHeight == null ? "" : " AND (height, transfer_id) < ($4, $5)";
        Tuple args = Tuple.of(chainId, SqlArrays.bytea(address), limit);
        if (beforeHeight != null) args.addLong(beforeHeight).addLong(beforeId);
        return pool.preparedQuery("SELECT transfer_id, height FROM track_watch_tx WHERE chain_id = $1 AND address = $2"
                        + after + " ORDER BY height DESC, transfer_id DESC LIMIT $3")
                .execute(args)
                .map(rows -> {
                    List<Found> out = new ArrayList<>();
                    for (Row r : rows) out.add(new Found(r.getLong(0), r.getLong(1)));
                    return out;
                });
    }
}
