package dev.weft.store;

import static dev.weft.testsupport.TestNodes.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.testsupport.WeftExtension;
import io.vertx.core.Future;
import io.vertx.sqlclient.Tuple;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Deciding whether a commit whose answer was lost went through. */
class CommitBurstTest {
    @RegisterExtension
    static final WeftExtension weft = new WeftExtension();

    private Database db;

    @BeforeEach
    void setUp() {
        db = weft.database(weft.config());
    }

    @Test
    @DisplayName(
            "a burst is one transaction: a statement refused by the server or by the client (a parameter of the wrong type) rolls back the statements before it, its own error is reported, the connection stays usable")
    void allOrNothing() {
        await(db.pool().query("CREATE TABLE burst_probe (x int PRIMARY KEY)").execute());
        CommitBurst duplicate = new CommitBurst();
        duplicate.add("INSERT INTO burst_probe VALUES ($1)", Tuple.of(1));
        duplicate.add("INSERT INTO burst_probe VALUES ($1)", Tuple.of(2));
        duplicate.add("INSERT INTO burst_probe VALUES ($1)", Tuple.of(1));
        duplicate.add("INSERT INTO burst_probe VALUES ($1)", Tuple.of(3));
        RuntimeException refused = assertThrows(RuntimeException.class, () -> await(duplicate.run(db.pool())));
        assertTrue(refused.getMessage().contains("duplicate key"), refused.getMessage());
        CommitBurst wrongType = new CommitBurst();
        wrongType.add("INSERT INTO burst_probe VALUES ($1)", Tuple.of(4));
        wrongType.add("INSERT INTO burst_probe VALUES ($1)", Tuple.of("not a number"));
        wrongType.add("INSERT INTO burst_probe VALUES ($1)", Tuple.of(5));
        assertThrows(RuntimeException.class, () -> await(wrongType.run(db.pool())));
        assertEquals(0L, count());

        CommitBurst fine = new CommitBurst();
        fine.add("INSERT INTO burst_probe VALUES ($1)", Tuple.of(6));
        fine.add("INSERT INTO burst_probe VALUES ($1)", Tuple.of(7));
        await(fine.run(db.pool()));
        assertEquals(2L, count());
    }

    private long count() {
        return await(db.pool().query("SELECT count(*) FROM burst_probe").execute())
                .iterator()
                .next()
                .getLong(0);
    }

    @Test
    @DisplayName(
            "a lost commit counts as landed only when the cursor carries its own token, not another writer's commit of the same height")
    void landedByToken() {
        UUID mine = UUID.randomUUID();
        UUID theirs = UUID.randomUUID();
        // another writer (the lease's next holder) moved the cursor to the height this writer's lost commit would have
        await(db.pool().preparedQuery(StatusStore.ADVANCE).execute(Tuple.of(StatusStore.INGEST, 105L, theirs)));
        RuntimeException lost = new RuntimeException("connection closed after COMMIT was sent");

        assertFalse(await(CommitBurst.landed(db.pool(), StatusStore.INGEST, mine)));
        assertTrue(await(CommitBurst.landed(db.pool(), StatusStore.INGEST, theirs)));
        assertSame(
                lost,
                assertThrows(
                        RuntimeException.class,
                        () -> await(CommitBurst.resolve(
                                Future.failedFuture(lost),
                                "run",
                                StatusStore.INGEST,
                                () -> CommitBurst.landed(db.pool(), StatusStore.INGEST, mine)))),
                "the commit's own failure stands");
        assertEquals(
                "run",
                await(CommitBurst.resolve(
                        Future.failedFuture(lost),
                        "run",
                        StatusStore.INGEST,
                        () -> CommitBurst.landed(db.pool(), StatusStore.INGEST, theirs))));
        // another cursor is not this one
        assertFalse(await(CommitBurst.landed(db.pool(), StatusStore.EVM, theirs)));
    }
}
