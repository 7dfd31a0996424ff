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
    /**
     * Not an address but the cluster-wide map (Vert.x shared data) where each chain's ingestion keeps the newest head
     * its node reported, so any API node can tell a chain's lag: chain id → height.
     */
    public static final String CHAIN_HEADS_MAP = "weft.chain.heads";

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

    // ---- resumable event subscriptions over the bridges ----

    /**
     * A bridge client's {@code send} here, body {@code {after, chain_id, topic, account, tx_hash, transfer}} (the
     * filters of {@code /v1/events/ws}), opens a subscription of its connection: the reply is {@code {address, after}},
     * the client {@code register}s that address and receives every stored matching event after {@code after}, then
     * the live ones. A failure is the bridge's error frame (400 bad filter, 429 too many, 410 below retention).
     */
    public static final String EVENTS_SUBSCRIBE = "weft.events.subscribe";

    /** The prefix of a subscription's own address ({@code weft.events.sub.<uuid>}), registrable only by its connection. */
    public static final String EVENTS_SUBSCRIPTION_PREFIX = "weft.events.sub.";

    /** The addresses a bridge permits outbound for subscriptions (the hook checks each belongs to the connection). */
    public static final String EVENTS_SUBSCRIPTION_REGEX = "weft\\.events\\.sub\\.[0-9a-f-]{36}";

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
    /**
     * Watched addresses ({@code /v2/watch}): {op: add|get|list|delete, client, chain_id, address}; answered by every API
     * instance from the database. Not open to the bridges: the {@code client} the bounds count is the HTTP client.
     */
    public static final String TRACK_WATCH = "weft.track.watch";
    /** {@code /v2/tx/by_address}: {chain_id, address, limit, cursor} → {txs, next}; answered by every API instance. */
    public static final String TRACK_BY_ADDRESS = "weft.track.by-address";
    /**
     * Published when watches were added or deleted: {chain_id, address}. The tracker reloads the watched accounts (it
     * also reloads them at start and every minute, so a lost notice only delays a watch).
     */
    public static final String TRACK_WATCHES_CHANGED = "weft.track.watches-changed";

    // ---- request/reply: wallet gateway (balances, broadcast) ----

    public static final String WALLET_BALANCES = "weft.wallet.balances";
    public static final String WALLET_SUBMIT = "weft.wallet.submit";

    // ---- webhooks ----

    /**
     * The webhooks changed (created, deleted, or dead letters asked to be re-driven): {id}. Published by the API so the
     * delivery writer, wherever it runs, reloads at once instead of at its next poll; internal, never bridged.
     */
    public static final String WEBHOOKS_CHANGED = "weft.webhooks.changed";

    // ---- cluster administration ----

    /** Per-node admin address prefix: {@code weft.admin.<node id>}; body {action, kind, instances}. */
    public static final String ADMIN_NODE_PREFIX = "weft.admin.";

    public static String adminOf(String nodeId) {
        return ADMIN_NODE_PREFIX + nodeId;
    }
}
