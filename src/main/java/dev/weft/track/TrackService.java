package dev.weft.track;

import dev.weft.bus.Addresses;
import dev.weft.bus.BusError;
import dev.weft.model.track.TransferState;
import dev.weft.store.TransferStore;
import io.vertx.core.Future;
import io.vertx.core.eventbus.EventBus;
import io.vertx.core.json.JsonObject;

/**
 * Registering a tx for tracking and reading its status, answered from the database, so that any node with the API
 * role serves them whether or not it runs the tracker (which only polls and writes states). Registration is
 * idempotent; registering an ABANDONED tx tracks it again. A new or re-armed registration publishes
 * {@link Addresses#TRANSFER_UPDATED} with state {@code STATE_SUBMITTED}.
 */
public final class TrackService {
    private final TransferStore store;
    private final TrackChains chains;
    private final EventBus bus;
    private final int maxOpen;

    /** @param maxOpen most transfers followed at once: a new registration beyond is refused (503) */
    public TrackService(TransferStore store, TrackChains chains, EventBus bus, int maxOpen) {
        this.store = store;
        this.chains = chains;
        this.bus = bus;
        this.maxOpen = maxOpen;
    }

    /**
     * {@code {tx_hash, chain_id}} → {@code {tx_hash, explorer_link}} (the hash normalised). At {@code track.max_open}
     * transfers followed, only txs already followed are accepted (registration stays idempotent).
     */
    public Future<JsonObject> track(JsonObject req) {
        String chain = chain(req);
        String hash = hash(chain, req);
        return store.countOpen()
                .compose(open -> open < maxOpen
                        ? Future.succeededFuture()
                        : store.find(chain, hash)
                                .compose(s -> s != null && !s.state().terminal()
                                        ? Future.succeededFuture()
                                        : Future.failedFuture(new BusError(
                                                503,
                                                "tracking capacity reached: " + maxOpen
                                                        + " transfers are followed; retry later"))))
                .compose(x -> store.register(chain, hash))
                .map(r -> {
                    if (r.created() || r.rearmed()) {
                        bus.publish(
                                Addresses.TRANSFER_UPDATED,
                                new JsonObject()
                                        .put("tx_hash", hash)
                                        .put("chain_id", chain)
                                        .put("state", TransferState.STATE_SUBMITTED.name())
                                        .put("sequence", r.sequence()));
                        Addresses.eventsAppended(bus, r.sequence());
                    }
                    return new JsonObject().put("tx_hash", hash).put("explorer_link", chains.explorerLink(chain, hash));
                });
    }

    /** {@code {tx_hash, chain_id}} → the status in Skip Go's StatusTxResponse shape; 404 {@code tx not found} when never tracked. */
    public Future<JsonObject> status(JsonObject req) {
        String chain = chain(req);
        String hash = hash(chain, req);
        return store.find(chain, hash).map(s -> {
            if (s == null) throw BusError.notFound("tx not found");
            return StatusJson.of(s.transfer(), chains::explorerLink);
        });
    }

    private String chain(JsonObject req) {
        Object c = req.getValue("chain_id");
        if (!(c instanceof String s) || s.isBlank()) throw BusError.badRequest("chain_id is required");
        if (!chains.supported(s.trim())) throw BusError.notFound("chain ID not supported");
        return s.trim();
    }

    private String hash(String chain, JsonObject req) {
        Object h = req.getValue("tx_hash");
        if (!(h instanceof String s) || s.isBlank()) throw BusError.badRequest("tx_hash is required");
        String n = chains.normalizeHash(chain, s);
        if (n == null)
            throw BusError.badRequest("invalid tx_hash " + s.trim() + ": expected 32 bytes of hex, with or without 0x");
        return n;
    }
}
