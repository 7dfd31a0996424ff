package dev.weft.devnet.rpc;

import dev.weft.chain.Hex;
import dev.weft.devnet.gen.Tx;
import dev.weft.devnet.http.Json;
import dev.weft.devnet.mempool.Broadcaster;
import dev.weft.devnet.mempool.Mempool;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import java.util.Base64;

/**
 * CometBFT's {@code broadcast_tx_sync}/{@code _async} (the CheckTx result: code, data, log, codespace, hash) and
 * {@code broadcast_tx_commit} (CheckTx, then the DeliverTx result once a block includes the tx, or the timeout error
 * after {@link #COMMIT_TIMEOUT_MS}, CometBFT's default {@code timeout_broadcast_tx_commit}). The tx is base64 in the
 * JSON-RPC form, {@code 0x}-hex or base64 in the URI form.
 */
final class BroadcastMethods {
    static final long COMMIT_TIMEOUT_MS = 10_000;

    private final Vertx vertx;
    private final Broadcaster broadcaster;

    BroadcastMethods(Vertx vertx, Broadcaster broadcaster) {
        this.vertx = vertx;
        this.broadcaster = broadcaster;
    }

    Future<Json.Body> sync(String tx) {
        Broadcaster.Submission s = submit(tx);
        return Future.succeededFuture(g -> {
            g.writeStartObject();
            g.writeNumberField("code", s.code());
            g.writeSafeStringField("data", "");
            g.writeStringField("log", s.log());
            g.writeStringField("codespace", s.codespace());
            g.writeSafeStringField("hash", s.hash());
            g.writeEndObject();
        });
    }

    Future<Json.Body> commit(String tx) {
        Broadcaster.Submission s = submit(tx);
        if (s.included() == null) return Future.succeededFuture(g -> commitBody(g, s, null, 0));
        Promise<Json.Body> p = Promise.promise();
        long timer = vertx.setTimer(
                COMMIT_TIMEOUT_MS,
                t -> p.tryFail(CometRpcServer.internal("timed out waiting for tx to be included in a block")));
        s.included().onSuccess(in -> {
            vertx.cancelTimer(timer);
            p.tryComplete(g -> commitBody(g, s, in.tx(), in.height()));
        });
        return p.future();
    }

    private static void commitBody(dev.weft.devnet.json.JsonOut g, Broadcaster.Submission s, Tx tx, long height) {
        g.writeStartObject();
        g.writeObjectFieldStart("check_tx");
        g.writeNumberField("code", s.code());
        g.writeNullField("data");
        g.writeStringField("log", s.log());
        g.writeSafeStringField("info", "");
        g.writeSafeStringField("gas_wanted", Long.toString(s.gasWanted()));
        g.writeSafeStringField("gas_used", Long.toString(s.gasUsed()));
        g.writeArrayFieldStart("events");
        g.writeEndArray();
        g.writeStringField("codespace", s.codespace());
        g.writeEndObject();
        g.writeFieldName("tx_result");
        if (tx != null) {
            CometJson.txResult(g, tx);
        } else {
            g.writeStartObject();
            g.writeNumberField("code", 0);
            g.writeNullField("data");
            g.writeSafeStringField("log", "");
            g.writeSafeStringField("info", "");
            g.writeSafeStringField("gas_wanted", "0");
            g.writeSafeStringField("gas_used", "0");
            g.writeArrayFieldStart("events");
            g.writeEndArray();
            g.writeSafeStringField("codespace", "");
            g.writeEndObject();
        }
        g.writeSafeStringField("hash", s.hash());
        g.writeSafeStringField("height", Long.toString(height));
        g.writeEndObject();
    }

    private Broadcaster.Submission submit(String tx) {
        if (broadcaster == null) throw CometRpcServer.internal("this node takes no transactions");
        if (tx == null || tx.isEmpty()) throw CometRpcServer.invalidParams("missing tx");
        byte[] raw;
        try {
            String t = tx.trim();
            raw = t.startsWith("0x") || t.startsWith("0X")
                    ? Hex.decode(t)
                    : Base64.getDecoder().decode(t);
        } catch (IllegalArgumentException e) {
            throw CometRpcServer.invalidParams("error converting http params to arguments: invalid tx encoding");
        }
        if (raw.length == 0) throw CometRpcServer.internal("tx is empty");
        try {
            return broadcaster.submit(raw);
        } catch (Mempool.Refused e) {
            throw CometRpcServer.internal(e.getMessage());
        }
    }
}
