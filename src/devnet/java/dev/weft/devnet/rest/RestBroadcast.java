package dev.weft.devnet.rest;

import dev.weft.devnet.http.Reply;
import dev.weft.devnet.mempool.Broadcaster;
import dev.weft.devnet.mempool.Mempool;
import dev.weft.devnet.tx.TxJson;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import java.util.Base64;

/**
 * The tx service's {@code BroadcastTx} ({@code POST /cosmos/tx/v1beta1/txs} with {@code {tx_bytes, mode}}; SDK 0.50
 * takes {@code BROADCAST_MODE_SYNC} and {@code _ASYNC}, both answering the CheckTx result at height 0) and
 * {@code TxEncode} ({@code POST /cosmos/tx/v1beta1/encode}) and {@code Simulate} ({@code POST /cosmos/tx/v1beta1/simulate}).
 */
final class RestBroadcast {
    private final Broadcaster broadcaster;

    RestBroadcast(Broadcaster broadcaster) {
        this.broadcaster = broadcaster;
    }

    Reply broadcast(Buffer body) {
        JsonObject req = json(body);
        if (req == null) return CosmosRestServer.error(400, 3, "invalid request body: not a JSON object");
        String mode = req.getString("mode", "BROADCAST_MODE_UNSPECIFIED");
        if (!mode.equals("BROADCAST_MODE_SYNC") && !mode.equals("BROADCAST_MODE_ASYNC")) {
            return CosmosRestServer.error(
                    400, 3, "unsupported broadcast mode " + mode + "; supported types: sync, async: invalid request");
        }
        byte[] raw;
        try {
            raw = Base64.getDecoder().decode(req.getString("tx_bytes", ""));
        } catch (IllegalArgumentException | ClassCastException e) {
            return CosmosRestServer.error(400, 3, "invalid tx_bytes: not base64: invalid request");
        }
        if (raw.length == 0) return CosmosRestServer.error(400, 3, "invalid empty tx: invalid request");
        if (broadcaster == null) return CosmosRestServer.error(500, 13, "this node takes no transactions");
        Broadcaster.Submission s;
        try {
            s = broadcaster.submit(raw);
        } catch (Mempool.Refused e) {
            return CosmosRestServer.error(500, 13, e.getMessage());
        }
        return Reply.json(200, g -> {
            g.writeStartObject();
            g.writeObjectFieldStart("tx_response");
            g.writeSafeStringField("height", "0");
            g.writeSafeStringField("txhash", s.hash());
            g.writeStringField("codespace", s.codespace());
            g.writeNumberField("code", s.code());
            g.writeSafeStringField("data", "");
            g.writeStringField("raw_log", s.log());
            g.writeArrayFieldStart("logs");
            g.writeEndArray();
            g.writeSafeStringField("info", "");
            g.writeSafeStringField("gas_wanted", Long.toString(s.gasWanted()));
            g.writeSafeStringField("gas_used", Long.toString(s.gasUsed()));
            g.writeNullField("tx");
            g.writeSafeStringField("timestamp", "");
            g.writeArrayFieldStart("events");
            g.writeEndArray();
            g.writeEndObject();
            g.writeEndObject();
        });
    }

    /**
     * {@code POST /cosmos/tx/v1beta1/simulate} with {@code {tx_bytes}}: {@code {gas_info: {gas_wanted, gas_used}, result}},
     * the gas the tx would use when broadcast (its ante handler's and each message's, as DeliverTx counts it); the
     * signature is not verified and the key may be left out, as the SDK's Simulate allows. A tx its ante handler refuses
     * (unknown account, wrong sequence) is the gateway's 500 with code 2 (Unknown), as the SDK answers.
     */
    Reply simulate(Buffer body) {
        JsonObject req = json(body);
        if (req == null) return CosmosRestServer.error(400, 3, "invalid request body: not a JSON object");
        byte[] raw;
        try {
            raw = Base64.getDecoder().decode(req.getString("tx_bytes", ""));
        } catch (IllegalArgumentException | ClassCastException e) {
            return CosmosRestServer.error(400, 3, "invalid tx_bytes: not base64: invalid request");
        }
        if (raw.length == 0) return CosmosRestServer.error(400, 3, "empty txBytes is not allowed: invalid request");
        if (broadcaster == null) return CosmosRestServer.error(500, 13, "this node takes no transactions");
        long gas;
        try {
            gas = broadcaster.simulate(raw);
        } catch (dev.weft.devnet.tx.DecodedTx.Rejected e) {
            return CosmosRestServer.error(
                    500, 2, e.getMessage() + " With gas wanted: '0' and gas used: '0' : unknown request");
        } catch (UnsupportedOperationException e) {
            return CosmosRestServer.error(501, 12, "Not Implemented");
        } catch (RuntimeException e) {
            return CosmosRestServer.error(400, 3, "invalid tx: " + e.getMessage() + ": invalid request");
        }
        return Reply.json(200, g -> {
            g.writeStartObject();
            g.writeObjectFieldStart("gas_info");
            g.writeSafeStringField("gas_wanted", "0");
            g.writeSafeStringField("gas_used", Long.toString(gas));
            g.writeEndObject();
            g.writeObjectFieldStart("result");
            g.writeSafeStringField("data", "");
            g.writeSafeStringField("log", "");
            g.writeArrayFieldStart("events");
            g.writeEndArray();
            g.writeArrayFieldStart("msg_responses");
            g.writeEndArray();
            g.writeEndObject();
            g.writeEndObject();
        });
    }

    static Reply encode(Buffer body) {
        JsonObject req = json(body);
        if (req == null) return CosmosRestServer.error(400, 3, "invalid request body: not a JSON object");
        byte[] raw;
        try {
            raw = TxJson.encode(req);
        } catch (IllegalArgumentException | ClassCastException e) {
            return CosmosRestServer.error(400, 3, e.getMessage());
        }
        String b64 = Base64.getEncoder().encodeToString(raw);
        return Reply.json(200, g -> {
            g.writeStartObject();
            g.writeSafeStringField("tx_bytes", b64);
            g.writeEndObject();
        });
    }

    private static JsonObject json(Buffer body) {
        try {
            Object v = body == null ? null : body.toJsonValue();
            return v instanceof JsonObject o ? o : null;
        } catch (RuntimeException e) {
            return null;
        }
    }
}
