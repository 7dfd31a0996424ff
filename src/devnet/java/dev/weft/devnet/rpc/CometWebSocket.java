package dev.weft.devnet.rpc;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.weft.devnet.gen.Block;
import dev.weft.devnet.gen.Event;
import dev.weft.devnet.gen.Tx;
import dev.weft.devnet.http.Json;
import dev.weft.devnet.http.JsonRpc;
import dev.weft.devnet.http.Reply;
import dev.weft.devnet.json.JsonOut;
import io.vertx.core.Future;
import io.vertx.core.http.ServerWebSocket;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * One client of CometBFT's {@code /websocket}: JSON-RPC calls answered on the socket, and {@code subscribe} /
 * {@code unsubscribe} / {@code unsubscribe_all} to {@code tm.event='NewBlock'} and {@code tm.event='Tx'} queries
 * (further {@code AND} conditions on event attributes, {@code tx.hash}, {@code tx.height}, {@code block.height}). An
 * event is the subscription's id with {@code {query, data: {type, value}, events}} as CometBFT 0.38's
 * {@code ResultEvent}. At most {@link #MAX_SUBSCRIPTIONS} per connection (CometBFT's {@code
 * max_subscriptions_per_client}); a client whose outbound queue is full when an event is due loses that subscription
 * with CometBFT's "not pulling messages fast enough" error instead of being buffered without bound.
 */
final class CometWebSocket {
    static final int MAX_SUBSCRIPTIONS = 5;
    /** Bytes queued for one client before it counts as slow. */
    static final int MAX_QUEUED_BYTES = 4 << 20;

    private static final ObjectMapper MAPPER = new ObjectMapper();

    private final ServerWebSocket ws;
    private final Function<JsonNode, Future<Reply>> calls;
    private final String chainId;
    /** Query text → (the subscribing request's id, the parsed query). */
    private final Map<String, Subscription> subscriptions = new LinkedHashMap<>();

    private record Subscription(String id, String event, TxQuery conditions) {}

    CometWebSocket(ServerWebSocket ws, Function<JsonNode, Future<Reply>> calls, String chainId) {
        this.ws = ws;
        this.calls = calls;
        this.chainId = chainId;
        ws.setWriteQueueMaxSize(MAX_QUEUED_BYTES);
        ws.textMessageHandler(this::onMessage);
    }

    private void onMessage(String text) {
        JsonNode req;
        try {
            req = MAPPER.readTree(text);
        } catch (IOException e) {
            send(g -> JsonRpc.error(g, "null", -32700, "Parse error. Invalid JSON", e.getMessage()));
            return;
        }
        if (req == null || !req.isObject()) {
            send(g -> JsonRpc.error(g, "null", -32600, "Invalid Request", null));
            return;
        }
        String id = req.has("id") ? req.get("id").toString() : "null";
        JsonNode params = req.path("params");
        String query = params.isArray()
                ? params.path(0).asText("")
                : params.path("query").asText("");
        switch (req.path("method").asText("")) {
            case "subscribe" -> subscribe(id, query);
            case "unsubscribe" -> {
                if (subscriptions.remove(query) == null) error(id, "subscription not found");
                else send(g -> empty(g, id));
            }
            case "unsubscribe_all" -> {
                if (subscriptions.isEmpty()) {
                    error(id, "subscription not found");
                } else {
                    subscriptions.clear();
                    send(g -> empty(g, id));
                }
            }
            default ->
                calls.apply(req).onSuccess(reply -> {
                    if (!ws.isClosed()) ws.writeTextMessage(reply.body().toString());
                });
        }
    }

    private void subscribe(String id, String query) {
        if (subscriptions.size() >= MAX_SUBSCRIPTIONS) {
            error(id, "max_subscriptions_per_client " + MAX_SUBSCRIPTIONS + " reached");
            return;
        }
        if (subscriptions.containsKey(query)) {
            error(id, "already subscribed");
            return;
        }
        TxQuery q;
        try {
            q = TxQuery.parse(query);
        } catch (IllegalArgumentException e) {
            error(id, "failed to parse query: " + e.getMessage());
            return;
        }
        String event = null;
        List<TxQuery.Condition> rest = new ArrayList<>();
        for (TxQuery.Condition c : q.conditions()) {
            if (c.key().equals("tm.event") && c.op().equals("=")) event = c.value();
            else
                rest.add(new TxQuery.Condition(
                        c.key().equals("block.height") ? "tx.height" : c.key(), c.op(), c.value()));
        }
        subscriptions.put(query, new Subscription(id, event, new TxQuery(rest)));
        send(g -> empty(g, id));
    }

    /** Publishes a new block: its NewBlock event, then one Tx event per tx, to the subscriptions they match. */
    void publish(Block b) {
        if (subscriptions.isEmpty() || ws.isClosed()) return;
        for (Map.Entry<String, Subscription> e : List.copyOf(subscriptions.entrySet())) {
            Subscription s = e.getValue();
            if ((s.event == null || s.event.equals("NewBlock"))
                    && s.conditions.matchesBlock(b.height, b.finalizeEvents)) {
                deliver(e.getKey(), s, g -> newBlock(g, b), blockEvents(b));
            }
            if (s.event == null || s.event.equals("Tx")) {
                for (Tx tx : b.txs) {
                    if (s.conditions.matches(b.height, tx))
                        deliver(e.getKey(), s, g -> txEvent(g, b, tx), txEvents(b, tx));
                }
            }
        }
    }

    private void deliver(String query, Subscription s, Json.Body data, Map<String, List<String>> events) {
        if (!subscriptions.containsKey(query)) return;
        if (ws.writeQueueFull()) {
            subscriptions.remove(query);
            error(s.id, "subscription was canceled (reason: client is not pulling messages fast enough)");
            return;
        }
        send(g -> {
            g.writeStartObject();
            g.writeStringField("jsonrpc", "2.0");
            g.writeFieldName("id");
            g.writeRawValue(s.id);
            g.writeObjectFieldStart("result");
            g.writeStringField("query", query);
            g.writeFieldName("data");
            data.write(g);
            g.writeObjectFieldStart("events");
            for (Map.Entry<String, List<String>> ev : events.entrySet()) {
                g.writeArrayFieldStart(ev.getKey());
                for (String v : ev.getValue()) g.writeString(v);
                g.writeEndArray();
            }
            g.writeEndObject();
            g.writeEndObject();
            g.writeEndObject();
        });
    }

    /** {@code EventDataNewBlock}: block, block_id, result_finalize_block (events, tx_results, validator updates, params, app hash). */
    private void newBlock(JsonOut g, Block b) {
        g.writeStartObject();
        g.writeStringField("type", "tendermint/event/NewBlock");
        g.writeObjectFieldStart("value");
        g.writeFieldName("block");
        BlockJson.COMET.block(g, b, chainId, null);
        g.writeFieldName("block_id");
        BlockJson.COMET.blockId(g, b.hash, b.partsHash);
        g.writeObjectFieldStart("result_finalize_block");
        if (!b.finalizeEvents.isEmpty()) {
            g.writeFieldName("events");
            CometJson.events(g, b.finalizeEvents);
        }
        if (!b.txs.isEmpty()) {
            g.writeArrayFieldStart("tx_results");
            for (Tx tx : b.txs) execResult(g, tx);
            g.writeEndArray();
        }
        g.writeArrayFieldStart("validator_updates");
        g.writeEndArray();
        g.writeSafeStringField("app_hash", Base64.getEncoder().encodeToString(b.resultsAppHash));
        g.writeEndObject();
        g.writeEndObject();
        g.writeEndObject();
    }

    /** {@code EventDataTx}: {@code {"TxResult": {height, index (omitted when 0), tx, result}}}. */
    private static void txEvent(JsonOut g, Block b, Tx tx) {
        g.writeStartObject();
        g.writeStringField("type", "tendermint/event/Tx");
        g.writeObjectFieldStart("value");
        g.writeObjectFieldStart("TxResult");
        g.writeSafeStringField("height", Long.toString(b.height));
        if (tx.index != 0) g.writeNumberField("index", tx.index);
        g.writeSafeStringField("tx", tx.rawBase64);
        g.writeFieldName("result");
        execResult(g, tx);
        g.writeEndObject();
        g.writeEndObject();
        g.writeEndObject();
    }

    /** An {@code ExecTxResult} as the event encodes it: every field omitted when empty (its JSON tags say omitempty). */
    private static void execResult(JsonOut g, Tx tx) {
        g.writeStartObject();
        if (tx.code != 0) g.writeNumberField("code", tx.code);
        if (tx.data != null && tx.data.length > 0)
            g.writeSafeStringField("data", Base64.getEncoder().encodeToString(tx.data));
        if (!tx.log.isEmpty()) g.writeStringField("log", tx.log);
        if (tx.gasLimit != 0) g.writeSafeStringField("gas_wanted", Long.toString(tx.gasLimit));
        if (tx.gasUsed != 0) g.writeSafeStringField("gas_used", Long.toString(tx.gasUsed));
        if (!tx.events.isEmpty()) {
            g.writeFieldName("events");
            CometJson.events(g, tx.events);
        }
        if (!tx.codespace.isEmpty()) g.writeSafeStringField("codespace", tx.codespace);
        g.writeEndObject();
    }

    /** The composite keys of a NewBlock: {@code tm.event} and every block-event attribute ({@code type.key} → values). */
    private static Map<String, List<String>> blockEvents(Block b) {
        Map<String, List<String>> out = flatten(b.finalizeEvents);
        out.put("tm.event", List.of("NewBlock"));
        return out;
    }

    private static Map<String, List<String>> txEvents(Block b, Tx tx) {
        Map<String, List<String>> out = flatten(tx.events);
        out.put("tm.event", List.of("Tx"));
        out.put("tx.hash", List.of(tx.hash));
        out.put("tx.height", List.of(Long.toString(b.height)));
        return out;
    }

    private static Map<String, List<String>> flatten(List<Event> events) {
        Map<String, List<String>> out = new TreeMap<>();
        for (Event e : events) {
            for (Event.Attr a : e.attributes()) {
                if (!a.key().isEmpty())
                    out.computeIfAbsent(e.type() + "." + a.key(), k -> new ArrayList<>())
                            .add(a.value());
            }
        }
        return out;
    }

    private void error(String id, String data) {
        send(g -> JsonRpc.error(g, id, -32603, "Internal error", data));
    }

    private static void empty(JsonOut g, String id) {
        JsonRpc.result(g, id, r -> {
            r.writeStartObject();
            r.writeEndObject();
        });
    }

    private void send(Json.Body body) {
        if (!ws.isClosed()) ws.writeTextMessage(Json.buffer(body).toString());
    }
}
