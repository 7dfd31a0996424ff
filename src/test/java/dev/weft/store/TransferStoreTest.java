package dev.weft.store;

import static dev.weft.testsupport.TestNodes.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.model.track.ChainTx;
import dev.weft.model.track.Hop;
import dev.weft.model.track.Transfer;
import dev.weft.model.track.TransferState;
import dev.weft.testsupport.WeftExtension;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Tracked transfers, hops and cursors in PostgreSQL: registration, pick-up, save and read-back. */
class TransferStoreTest {
    @RegisterExtension
    static final WeftExtension weft = new WeftExtension();

    static final String H1 = "A".repeat(64), H2 = "B".repeat(64);
    private Database db;
    private TransferStore store;

    @BeforeEach
    void setUp() {
        db = weft.database(weft.config());
        store = new TransferStore(db.pool());
    }

    @Test
    @DisplayName("registration is idempotent; the tracker picks each new one up once; an abandoned one is re-armed")
    void registration() {
        TransferStore.Registration first = await(store.register("weft-l1-1", H1));
        assertTrue(first.created());
        TransferStore.Registration again = await(store.register("weft-l1-1", H1));
        assertEquals(new TransferStore.Registration(first.id(), false, false, null), again);
        await(store.register("weft-devnet-1", H1));
        List<TransferStore.Stored> armed = await(store.takeArmed(100));
        assertEquals(2, armed.size());
        assertEquals(TransferState.STATE_SUBMITTED, armed.get(0).state());
        assertTrue(await(store.takeArmed(100)).isEmpty(), "picked up once");
        Transfer t = armed.get(0).transfer();
        t.abandon();
        List<Long> saved = await(store.save(
                List.of(new TransferStore.Save(t, TransferState.STATE_ABANDONED, 1_000)),
                Map.of(),
                List.of(),
                List.of(new TransferStore.Announced(t.chainId, t.txHash, "STATE_ABANDONED"))));
        assertEquals(1, saved.size());
        assertTrue(saved.get(0) > first.sequence());
        // each state change's event, with the data it describes: chain, tx hash, transfer key, state
        EventStore.Page log = await(new EventStore(db.pool())
                .after(new EventStore.Query(
                        0,
                        100,
                        null,
                        EventStore.TRANSFERS,
                        null,
                        null,
                        TransferStore.transferKey(t.chainId, t.txHash))));
        assertEquals(
                List.of("STATE_SUBMITTED", "STATE_ABANDONED"),
                log.events().stream().map(e -> e.payload().getString("state")).toList());
        assertEquals(
                List.of(first.sequence(), saved.get(0)),
                log.events().stream().map(EventStore.Event::sequence).toList());
        assertEquals(t.chainId, log.events().get(1).chainId());
        // the same save again (what the tracker does when that save's answer was lost): no event twice
        List<Long> resaved = await(store.save(
                List.of(new TransferStore.Save(t, TransferState.STATE_ABANDONED, 1_000)),
                Map.of(),
                List.of(),
                List.of(new TransferStore.Announced(t.chainId, t.txHash, "STATE_ABANDONED"))));
        assertEquals(java.util.Collections.singletonList(null), resaved, "already recorded: not written again");
        assertEquals(
                2,
                await(new EventStore(db.pool())
                                .after(new EventStore.Query(
                                        0,
                                        100,
                                        null,
                                        EventStore.TRANSFERS,
                                        null,
                                        null,
                                        TransferStore.transferKey(t.chainId, t.txHash))))
                        .events()
                        .size());
        TransferStore.Registration rearm = await(store.register("weft-l1-1", H1));
        assertEquals(first.id(), rearm.id());
        assertEquals(false, rearm.created());
        assertEquals(true, rearm.rearmed());
        assertEquals(true, rearm.sequence() > first.sequence(), "a transfers event for each new STATE_SUBMITTED");
        List<TransferStore.Stored> back = await(store.takeArmed(100));
        assertEquals(1, back.size());
        assertFalse(back.get(0).transfer().abandoned());
    }

    @Test
    @DisplayName("a cycle's save (state, tx, hops as JSON, cursors) reads back into the same model; dropped cursors go")
    void saveAndFind() {
        long id = await(store.register("weft-l1-1", H2)).id();
        Transfer t = new Transfer(id, "weft-l1-1", H2);
        ChainTx send = new ChainTx("weft-l1-1", H2, 10, 10_000_000_000L);
        t.seen(send, 0, "");
        Hop hop = Hop.ibc(
                        0,
                        0,
                        "weft-l1-1",
                        "weft-devnet-1",
                        "transfer",
                        "channel-0",
                        "transfer",
                        "channel-0",
                        7,
                        99L,
                        "uinit",
                        "ibc/X",
                        "5",
                        send)
                .expectingForwards(1);
        hop.received(new ChainTx("weft-devnet-1", "C".repeat(64), 12, 12_000_000_000L));
        hop.acknowledgementWritten(false, "boom");
        t.addHop(hop);
        await(store.save(
                List.of(new TransferStore.Save(t, t.state(), 5_000)),
                Map.of(
                        "weft-l1-1",
                        new TransferStore.Cursor(12, 12_000_000_000L),
                        "weft-move-1",
                        new TransferStore.Cursor(3, 3)),
                List.of()));
        TransferStore.Stored s = await(store.find("weft-l1-1", H2));
        assertEquals(TransferState.STATE_PENDING_ERROR, s.state());
        assertEquals(5_000, s.progressAtMillis());
        Hop back = s.transfer().hop(0, 0);
        assertEquals(hop.toJson(), back.toJson());
        assertEquals(Hop.TRANSFER_RECEIVED, back.state());
        assertEquals(send, s.transfer().tx());
        assertEquals(t.state(), s.transfer().state());
        assertEquals(1, await(store.loadOpen()).size());
        await(store.save(List.of(), Map.of(), List.of("weft-move-1")));
        assertEquals(Map.of("weft-l1-1", new TransferStore.Cursor(12, 12_000_000_000L)), await(store.cursors()));
        assertNull(await(store.find("weft-l1-1", "D".repeat(64))));
    }
}
