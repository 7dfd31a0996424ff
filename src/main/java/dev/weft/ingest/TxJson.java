package dev.weft.ingest;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.io.SerializedString;
import dev.weft.chain.Hex;
import dev.weft.chain.model.AbciEvent;
import dev.weft.chain.model.BlockResults;
import dev.weft.chain.model.EventsSpan;
import dev.weft.chain.model.RestTx;
import dev.weft.model.ingest.JsonOut;
import java.io.IOException;
import java.util.Base64;
import java.util.List;

/**
 * The Cosmos tx record of the API (as rollytics' api/handler/tx/types.go serves it), rendered once at ingest:
 * {@code {"txhash","height","codespace","code","data","raw_log","logs","info","gas_wanted","gas_used","tx","timestamp","events"}}.
 * {@code data} is the upper-case hex of the result bytes, {@code tx} the REST-decoded tx without an {@code @type}
 * wrapper, {@code logs} always {@code []} (SDK 0.50 logs are not JSON), {@code timestamp} Go RFC3339Nano of the
 * block time, and {@code events} the CometBFT events encoded the way Go's {@code encoding/json} encodes
 * {@code abci.Event} (empty {@code type}, {@code key}, false {@code index} and empty attribute lists omitted; a node's
 * {@code null} list is written as {@code []}), except that an attribute always has its {@code value}, {@code ""} when
 * empty or absent. Events the node sent in exactly that form are copied from its bytes ({@link EventsSpan}).
 */
final class TxJson {
    private TxJson() {}

    static byte[] render(String txHash, long height, BlockResults.TxResult r, RestTx restTx, String timestamp) {
        return JsonOut.render(g -> {
            g.writeStartObject();
            g.writeStringField("txhash", txHash);
            g.writeStringField("height", Long.toString(height));
            JsonOut.string(g, "codespace", r.codespace());
            g.writeNumberField("code", r.code());
            g.writeStringField(
                    "data",
                    r.data().isEmpty() ? "" : Hex.upper(Base64.getDecoder().decode(r.data())));
            JsonOut.string(g, "raw_log", r.log());
            g.writeArrayFieldStart("logs");
            g.writeEndArray();
            JsonOut.string(g, "info", r.info());
            g.writeStringField("gas_wanted", r.gasWanted());
            g.writeStringField("gas_used", r.gasUsed());
            g.writeFieldName("tx");
            if (restTx.needsRewrite()) JsonOut.tree(g, restTx.tree(), "@type");
            else g.writeRawValue(new RawJson(restTx.source(), restTx.start(), restTx.end()));
            g.writeStringField("timestamp", timestamp);
            g.writeFieldName("events");
            EventsSpan verbatim = r.eventsJson();
            if (verbatim != null) g.writeRawValue(new RawJson(verbatim.source(), verbatim.start(), verbatim.end()));
            else events(g, r.events());
            g.writeEndObject();
        });
    }

    // field names pre-encoded once: events are most of what a tx record holds
    private static final SerializedString TYPE = new SerializedString("type");
    private static final SerializedString ATTRIBUTES = new SerializedString("attributes");
    private static final SerializedString KEY = new SerializedString("key");
    private static final SerializedString VALUE = new SerializedString("value");
    private static final SerializedString INDEX = new SerializedString("index");

    static void events(JsonGenerator g, List<AbciEvent> events) throws IOException {
        g.writeStartArray();
        for (AbciEvent e : events) {
            g.writeStartObject();
            if (!e.type().isEmpty()) {
                g.writeFieldName(TYPE);
                g.writeString(JsonOut.clean(e.type()));
            }
            if (!e.attributes().isEmpty()) {
                g.writeFieldName(ATTRIBUTES);
                g.writeStartArray();
                for (AbciEvent.Attribute a : e.attributes()) {
                    g.writeStartObject();
                    if (!a.key().isEmpty()) {
                        g.writeFieldName(KEY);
                        g.writeString(JsonOut.clean(a.key()));
                    }
                    // always written: CometBFT 0.38 drops an empty value (a zero-fee tx's fee), and clients expect the
                    // key
                    g.writeFieldName(VALUE);
                    g.writeString(JsonOut.clean(a.value()));
                    if (a.index()) {
                        g.writeFieldName(INDEX);
                        g.writeBoolean(true);
                    }
                    g.writeEndObject();
                }
                g.writeEndArray();
            }
            g.writeEndObject();
        }
        g.writeEndArray();
    }
}
