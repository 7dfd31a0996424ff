package dev.weft.store;

import io.vertx.core.Future;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.Tuple;
import java.util.ArrayList;
import java.util.List;

/**
 * Who holds and who waits for the writer leases, as PostgreSQL sees them: every lease connection names its node in
 * {@code application_name} ({@value #APPLICATION_PREFIX}{@code <node id> <lease>}), and a held lease is that connection's
 * granted advisory lock (a bigint key shows in {@code pg_locks} as its high and low 32 bits, objsubid 1). A dead node's
 * connections are gone, so what this reads is the live cluster.
 */
public final class LeaseStore {
    public static final String APPLICATION_PREFIX = "weft lease ";

    /**
     * One lease connection: the node it belongs to, the lease it is for (as far as the 63 bytes of its name keep it: a
     * prefix of the lease name), and, when it holds one, the lease key it holds (else null).
     */
    public record LeaseConnection(String nodeId, String lease, Long heldKey) {
        /** Whether this connection is for the lease named {@code name} (its cut name a prefix of it). */
        public boolean isFor(String name) {
            return !lease.isEmpty() && name.startsWith(lease);
        }
    }

    private final Pool pool;

    /** A writer lease's advisory-lock key: the first 8 bytes of SHA-256 of its name. */
    public static long keyOf(String lease) {
        return java.nio.ByteBuffer.wrap(dev.weft.chain.Hashes.sha256(
                        ("weft.writer." + lease).getBytes(java.nio.charset.StandardCharsets.UTF_8)))
                .getLong();
    }

    public LeaseStore(Pool pool) {
        this.pool = pool;
    }

    /** The node an operator asked to write the chain, or null. */
    public Future<String> preferred(String chainId) {
        return pool.preparedQuery("SELECT node_id FROM writer_preference WHERE chain_id = $1")
                .execute(Tuple.of(chainId))
                .map(rows -> rows.size() == 0 ? null : rows.iterator().next().getString(0));
    }

    /** Asks that {@code nodeId} write the chain (null: no preference, the balance alone decides). */
    public Future<Void> prefer(String chainId, String nodeId) {
        return (nodeId == null
                        ? pool.preparedQuery("DELETE FROM writer_preference WHERE chain_id = $1")
                                .execute(Tuple.of(chainId))
                        : pool.preparedQuery(
                                        "INSERT INTO writer_preference (chain_id, node_id) VALUES ($1, $2)"
                                                + " ON CONFLICT (chain_id) DO UPDATE SET node_id = EXCLUDED.node_id, created = now()")
                                .execute(Tuple.of(chainId, nodeId)))
                .mapEmpty();
    }

    /** Every lease connection of every node, with the advisory lock each holds (a connection holds at most one). */
    public Future<List<LeaseConnection>> connections() {
        return pool.preparedQuery(
                        "SELECT split_part(substr(a.application_name, $1), ' ', 1), split_part(substr(a.application_name, $1), ' ', 2),"
                                + " (l.classid::bigint << 32) | l.objid::bigint"
                                + " FROM pg_stat_activity a LEFT JOIN pg_locks l ON l.pid = a.pid"
                                + " AND l.locktype = 'advisory' AND l.granted AND l.objsubid = 1"
                                + " WHERE a.application_name LIKE $2")
                .execute(Tuple.of(APPLICATION_PREFIX.length() + 1, APPLICATION_PREFIX + "%"))
                .map(rows -> {
                    List<LeaseConnection> out = new ArrayList<>();
                    for (Row r : rows) out.add(new LeaseConnection(r.getString(0), r.getString(1), r.getLong(2)));
                    return out;
                });
    }
}
