package dev.weft.webhook;

import dev.weft.bus.BusError;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.Tuple;
import java.util.ArrayList;
import java.util.List;

/** The webhooks, their durable cursors and their dead letters (migration V015). */
final class WebhookStore {
    /** A transaction lock serialising creations, so the count check and the insert cannot race past the bound. */
    private static final long CREATE_LOCK = 7305421015L;

    private static final String COLUMNS = "w.id, w.url, w.filters, w.cursor, w.created,"
            + " (SELECT count(*) FROM webhook_dead_letters d WHERE d.webhook_id = w.id),"
            + " EXISTS (SELECT 1 FROM webhook_dead_letters d WHERE d.webhook_id = w.id AND d.redrive), w.secret";

    private final Pool pool;

    WebhookStore(Pool pool) {
        this.pool = pool;
    }

    /** A webhook as stored; {@code secret} is for the delivery writer only, never shown. */
    record Hook(
            String id,
            String url,
            JsonObject filters,
            long cursor,
            String created,
            long deadLetters,
            boolean redrivePending,
            String secret) {
        JsonObject json() {
            return new JsonObject()
                    .put("id", id)
                    .put("url", url)
                    .put("filters", filters)
                    .put("created", created)
                    .put("cursor", cursor)
                    .put("dead_letters", deadLetters);
        }
    }

    private static Hook hook(Row r) {
        return new Hook(
                r.getString(0),
                r.getString(1),
                (JsonObject) r.getValue(2),
                r.getLong(3),
                r.getOffsetDateTime(4).toInstant().toString(),
                r.getLong(5),
                r.getBoolean(6),
                r.getString(7));
    }

    /**
     * Adds a webhook whose cursor is {@code after}, or the newest sequence when null; a 409 when {@code max} exist.
     */
    Future<Hook> create(String id, String url, String secret, JsonObject filters, Long after, int max) {
        return pool.withTransaction(c -> c.preparedQuery(
                        "SELECT pg_advisory_xact_lock($1), (SELECT count(*) FROM webhooks)")
                .execute(Tuple.of(CREATE_LOCK))
                .compose(rows -> {
                    if (rows.iterator().next().getLong(1) >= max)
                        return Future.failedFuture(
                                new BusError(409, "there are already " + max + " webhooks (webhooks.max_webhooks)"));
                    return c.preparedQuery("INSERT INTO webhooks (id, url, secret, filters, cursor)"
                                    + " SELECT $1, $2, $3, $4, coalesce($5, (SELECT max(sequence) FROM event_log), 0)"
                                    + " RETURNING id")
                            .execute(Tuple.of(id, url, secret, filters, after))
                            .compose(x -> c.preparedQuery("SELECT " + COLUMNS + " FROM webhooks w WHERE w.id = $1")
                                    .execute(Tuple.of(id)))
                            .map(r -> hook(r.iterator().next()));
                }));
    }

    Future<List<Hook>> list() {
        return pool.query("SELECT " + COLUMNS + " FROM webhooks w ORDER BY w.created, w.id")
                .execute()
                .map(rows -> {
                    List<Hook> out = new ArrayList<>();
                    rows.forEach(r -> out.add(hook(r)));
                    return out;
                });
    }

    Future<Hook> get(String id) {
        return pool.preparedQuery("SELECT " + COLUMNS + " FROM webhooks w WHERE w.id = $1")
                .execute(Tuple.of(id))
                .map(rows -> rows.size() == 0 ? null : hook(rows.iterator().next()));
    }

    Future<Boolean> delete(String id) {
        return pool.preparedQuery("DELETE FROM webhooks WHERE id = $1")
                .execute(Tuple.of(id))
                .map(r -> r.rowCount() > 0);
    }

    /** Moves a cursor forward (never back: a late answer of an older delivery leaves a newer cursor alone). */
    Future<Void> advance(String id, long sequence) {
        return pool.preparedQuery("UPDATE webhooks SET cursor = $2 WHERE id = $1 AND cursor < $2")
                .execute(Tuple.of(id, sequence))
                .mapEmpty();
    }

    /**
     * Dead-letters an event and moves the cursor past it, in one transaction; beyond {@code keep} dead letters the
     * oldest go.
     */
    Future<Void> deadLetter(String id, long sequence, String body, int attempts, String error, int keep) {
        return pool.withTransaction(c -> c.preparedQuery(
                                "INSERT INTO webhook_dead_letters (webhook_id, sequence, body, attempts, last_error)"
                                        + " SELECT $1, $2, $3, $4, $5 WHERE EXISTS (SELECT 1 FROM webhooks WHERE id = $1)"
                                        + " ON CONFLICT (webhook_id, sequence) DO UPDATE SET attempts ="
                                        + " webhook_dead_letters.attempts + excluded.attempts, last_error = excluded.last_error")
                        .execute(Tuple.of(id, sequence, body, attempts, truncate(error)))
                        .compose(x -> c.preparedQuery("UPDATE webhooks SET cursor = $2 WHERE id = $1 AND cursor < $2")
                                .execute(Tuple.of(id, sequence)))
                        .compose(x -> c.preparedQuery(
                                        "DELETE FROM webhook_dead_letters WHERE webhook_id = $1 AND sequence <= (SELECT"
                                                + " sequence FROM webhook_dead_letters WHERE webhook_id = $1"
                                                + " ORDER BY sequence DESC OFFSET $2 LIMIT 1)")
                                .execute(Tuple.of(id, keep))))
                .mapEmpty();
    }

    /** One dead letter. */
    record DeadLetter(long sequence, String body, int attempts, String lastError, boolean redrive, String created) {
        JsonObject json() {
            return new JsonObject()
                    .put("sequence", sequence)
                    .put("attempts", attempts)
                    .put("last_error", lastError)
                    .put("redrive", redrive)
                    .put("created", created)
                    .put("delivery", new JsonObject(body));
        }
    }

    private static DeadLetter deadLetter(Row r) {
        return new DeadLetter(
                r.getLong(0),
                r.getString(1),
                r.getInteger(2),
                r.getString(3),
                r.getBoolean(4),
                r.getOffsetDateTime(5).toInstant().toString());
    }

    /** Dead letters after a sequence, oldest first; {@code onlyRedrive}: those asked to be delivered again. */
    Future<List<DeadLetter>> deadLetters(String id, long after, int limit, boolean onlyRedrive) {
        return pool.preparedQuery(
                        "SELECT sequence, body, attempts, last_error, redrive, created FROM webhook_dead_letters"
                                + " WHERE webhook_id = $1 AND sequence > $2" + (onlyRedrive ? " AND redrive" : "")
                                + " ORDER BY sequence LIMIT $3")
                .execute(Tuple.of(id, after, limit))
                .map(rows -> {
                    List<DeadLetter> out = new ArrayList<>();
                    rows.forEach(r -> out.add(deadLetter(r)));
                    return out;
                });
    }

    /** Asks for every dead letter of a webhook to be delivered again; answers how many there are. */
    Future<Integer> redrive(String id) {
        return pool.preparedQuery("UPDATE webhook_dead_letters SET redrive = true WHERE webhook_id = $1")
                .execute(Tuple.of(id))
                .map(r -> r.rowCount());
    }

    /** A re-driven dead letter was delivered: it goes. */
    Future<Void> redriven(String id, long sequence) {
        return pool.preparedQuery("DELETE FROM webhook_dead_letters WHERE webhook_id = $1 AND sequence = $2")
                .execute(Tuple.of(id, sequence))
                .mapEmpty();
    }

    /** A re-drive failed again: the dead letter stays, no longer asked for. */
    Future<Void> redriveFailed(String id, long sequence, int attempts, String error) {
        return pool.preparedQuery("UPDATE webhook_dead_letters SET redrive = false, attempts = attempts + $3,"
                        + " last_error = $4 WHERE webhook_id = $1 AND sequence = $2")
                .execute(Tuple.of(id, sequence, attempts, truncate(error)))
                .mapEmpty();
    }

    private static String truncate(String s) {
        return s.length() > 500 ? s.substring(0, 500) : s;
    }
}
