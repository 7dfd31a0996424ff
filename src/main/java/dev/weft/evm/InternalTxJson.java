package dev.weft.evm;

import com.fasterxml.jackson.core.JsonGenerator;
import dev.weft.chain.model.NodeJson;
import dev.weft.model.evm.InternalTx;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * The API item of an internal tx (as rollytics' api/handler/tx/internaltx.go serves it), rendered once when it is traced:
 * {@code {"height","hash","parent_index","index","type","from","to","input","output","value","gas","gasUsed"}} with
 * rollytics' mixed snake/camel names, numbers for height and the indexes, strings for the rest; then, only for a frame
 * that failed, the callTracer's {@code error} and (when the node gave one) {@code revertReason}: deliberate extras
 * rollytics drops, so a client can tell a reverted call from a successful one.
 */
public final class InternalTxJson {
    private InternalTxJson() {}

    public static byte[] render(long height, String txHash, InternalTx t) {
        ByteArrayOutputStream out =
                new ByteArrayOutputStream(256 + t.input().length() + t.output().length());
        try (JsonGenerator g = NodeJson.FACTORY.createGenerator(out)) {
            g.writeStartObject();
            g.writeNumberField("height", height);
            g.writeStringField("hash", txHash);
            g.writeNumberField("parent_index", t.parentIndex());
            g.writeNumberField("index", t.index());
            g.writeStringField("type", t.type());
            g.writeStringField("from", t.from());
            g.writeStringField("to", t.to());
            g.writeStringField("input", t.input());
            g.writeStringField("output", t.output());
            g.writeStringField("value", t.value());
            g.writeStringField("gas", t.gas());
            g.writeStringField("gasUsed", t.gasUsed());
            if (t.error() != null) {
                g.writeStringField("error", t.error());
                if (t.revertReason() != null) g.writeStringField("revertReason", t.revertReason());
            }
            g.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }
}
