package dev.weft.bus;

import java.util.List;

/**
 * Every event-bus address of Weft. Payloads are JSON objects. {@code weft.updates.*} addresses are published
 * (fan-out to every subscriber, also outside subscribers through the bridges); the others are request/reply.
 * Request handlers reply with a JSON body, or fail the message with a {@link BusError} ({@link BusError#failTo}:
 * the HTTP status as failure code, {@code {"message","details"}} as failure message).
 */
public final class Addresses {
    private Addresses() {}

    // ---- published updates (outbound through the bridges) ----

    /**
     * A block was committed: {chain_id, height, hash, tx_count, time, sequence}. Every {@code weft.updates.*} payload
     * carries the {@code sequence} of its event in the durable event log (absent when it could not be read back).
     */
    public static final String BLOCK_INDEXED = "weft.updates.blocks";
    /** Internal txs of a height were committed: {chain_id, height, count, sequence}. */
    public static final String INTERNAL_TXS_INDEXED = "weft.updates.internal-txs";
    /** The rich list was applied up to a height: {chain_id, height, denoms, sequence}. */
    public static final String RICH_LIST_UPDATED = "weft.updates.richlist";
    /** A tracked transfer changed state: {tx_hash, chain_id, state, sequence}. */
    public static final String TRANSFER_UPDATED = "weft.updates.transfers";

    /**
     * The durable event log has more events: {sequence} (the last one written, absent when the writer could not tell,
     * after a commit whose answer was lost). A hint to wake readers, who read the log itself from where they stand
     * ({@code /v1/events}); published after every commit that wrote events.
     */
    public static final String EVENTS_APPENDED = "weft.updates.events";

    /** The addresses outside subscribers may listen to. */
    public static final List<String> PUBLISHED =
            List.of(BLOCK_INDEXED, INTERNAL_TXS_INDEXED, RICH_LIST_UPDATED, TRANSFER_UPDATED, EVENTS_APPENDED);

    /** Publishes {@link #EVENTS_APPENDED}. */
    public static void eventsAppended(io.vertx.core.eventbus.EventBus bus, Long lastSequence) {
        io.vertx.core.json.JsonObject body = new io.vertx.core.json.JsonObject();
        if (lastSequence != null) body.put("sequence", lastSequence);
        bus.publish(EVENTS_APPENDED, body);
    }

    // ---- request/reply: routing ----

    public static final String ROUTE_COMPUTE = "weft.route.compute";
    public static final String ROUTE_MSGS = "weft.route.msgs";
    public static final String ROUTE_OP_HOOK = "weft.route.op-hook";
    public static final String ROUTE_CHAINS = "weft.route.chains";
    public static final String ROUTE_ASSETS = "weft.route.assets";
    public static final String ROUTE_RELOAD = "weft.route.reload";
    public static final String ROUTE_VENUES = "weft.route.venues";
    public static final String ROUTE_BRIDGES = "weft.route.bridges";
    public static final String ROUTE_MSGS_DIRECT = "weft.route.msgs-direct";
    /** Weft's {@code /v2/fungible/routes}: the k best routes and the rejected paths. */
    public static final String ROUTE_ROUTES = "weft.route.routes";
    /** Skip's discovery endpoints ({@code /v2/fungible/assets_from_source} and the others). */
    public static final String ROUTE_ASSETS_FROM_SOURCE = "weft.route.assets-from-source";

    public static final String ROUTE_ASSETS_BETWEEN_CHAINS = "weft.route.assets-between-chains";
    public static final String ROUTE_RECOMMEND_ASSETS = "weft.route.recommend-assets";
    public static final String ROUTE_IBC_ORIGIN_ASSETS = "weft.route.ibc-origin-assets";

    /**
     * A request header the routing addresses honour: with {@value #ENCODED_REPLY} the reply body is the JSON already
     * encoded (a buffer), which the HTTP API writes as it is; without it, a JSON object (bridge clients, other callers).
     * Encoding where the answer is computed spares the bus the object's copy and keeps the API's event loop light.
     */
    public static final String REPLY_FORMAT = "weft-reply-format";

    public static final String ENCODED_REPLY = "encoded";

    // ---- request/reply: transfer tracking ----

    public static final String TRACK_REGISTER = "weft.track.register";
    public static final String TRACK_STATUS = "weft.track.status";

    // ---- request/reply: wallet gateway (balances, broadcast) ----

    public static final String WALLET_BALANCES = "weft.wallet.balances";
    public static final String WALLET_SUBMIT = "weft.wallet.submit";

    // ---- cluster administration ----

    /** Per-node admin address prefix: {@code weft.admin.<node id>}; body {action, kind, instances}. */
    public static final String ADMIN_NODE_PREFIX = "weft.admin.";

    public static String adminOf(String nodeId) {
        return ADMIN_NODE_PREFIX + nodeId;
    }
}
