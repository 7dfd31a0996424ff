package dev.weft.devnet.rest;

import dev.weft.chain.CosmosTx;
import dev.weft.chain.Hex;
import dev.weft.devnet.gen.Block;
import dev.weft.devnet.gen.Msg;
import dev.weft.devnet.gen.Tx;
import dev.weft.devnet.gen.TxBuilder;
import dev.weft.devnet.http.Times;
import dev.weft.devnet.json.JsonOut;
import dev.weft.devnet.rpc.CometJson;
import java.util.Base64;

/**
 * Cosmos SDK 0.50 gRPC-gateway JSON: proto field names and order, int64 as strings, enums by name, bytes (hashes
 * included) base64, defaults emitted.
 */
public final class RestJson {
    private static final Base64.Encoder B64 = Base64.getEncoder();

    private RestJson() {}

    /** A decoded {@code cosmos.tx.v1beta1.Tx}; with {@code typed} it carries {@code "@type"} (inside a TxResponse). */
    public static void tx(JsonOut g, Tx tx, boolean typed) {
        g.writeStartObject();
        if (typed) g.writeSafeStringField("@type", "/cosmos.tx.v1beta1.Tx");
        g.writeObjectFieldStart("body");
        g.writeArrayFieldStart("messages");
        for (Msg m : tx.msgs) m.json(g);
        g.writeEndArray();
        g.writeStringField("memo", tx.memo);
        g.writeSafeStringField("timeout_height", Long.toString(tx.decoded == null ? 0 : tx.decoded.timeoutHeight()));
        g.writeArrayFieldStart("extension_options");
        g.writeEndArray();
        g.writeArrayFieldStart("non_critical_extension_options");
        g.writeEndArray();
        g.writeEndObject();
        g.writeObjectFieldStart("auth_info");
        g.writeArrayFieldStart("signer_infos");
        if (tx.decoded == null) {
            signerInfo(g, TxBuilder.ETHSECP256K1, tx.signer.pubKey(), tx.sequence);
        } else {
            for (CosmosTx.SignerInfo s : tx.decoded.signerInfos())
                signerInfo(g, s.pubKeyType(), s.pubKey(), s.sequence());
        }
        g.writeEndArray();
        g.writeObjectFieldStart("fee");
        Msg.coins(g, "amount", tx.fee);
        g.writeSafeStringField("gas_limit", Long.toString(tx.gasLimit));
        g.writeStringField("payer", tx.decoded == null ? "" : tx.decoded.fee().payer());
        g.writeStringField("granter", tx.decoded == null ? "" : tx.decoded.fee().granter());
        g.writeEndObject();
        g.writeNullField("tip");
        g.writeEndObject();
        g.writeArrayFieldStart("signatures");
        if (tx.decoded == null) {
            g.writeSafeString(tx.signatureBase64);
        } else {
            for (byte[] sig : tx.decoded.signatures()) g.writeSafeString(B64.encodeToString(sig));
        }
        g.writeEndArray();
        g.writeEndObject();
    }

    /** One {@code signer_info}: its public key (an Any; null when the signer sent none), SIGN_MODE_DIRECT, its sequence. */
    private static void signerInfo(JsonOut g, String keyType, byte[] key, long sequence) {
        g.writeStartObject();
        if (key == null) {
            g.writeNullField("public_key");
        } else {
            g.writeObjectFieldStart("public_key");
            g.writeStringField("@type", keyType);
            g.writeSafeStringField("key", B64.encodeToString(key));
            g.writeEndObject();
        }
        g.writeObjectFieldStart("mode_info");
        g.writeObjectFieldStart("single");
        g.writeSafeStringField("mode", "SIGN_MODE_DIRECT");
        g.writeEndObject();
        g.writeEndObject();
        g.writeSafeStringField("sequence", Long.toString(sequence));
        g.writeEndObject();
    }

    /** A {@code cosmos.base.abci.v1beta1.TxResponse}; {@code data} is upper-case hex, as the SDK prints it. */
    public static void txResponse(JsonOut g, Block b, Tx tx) {
        g.writeStartObject();
        g.writeSafeStringField("height", Long.toString(b.height));
        g.writeSafeStringField("txhash", tx.hash);
        g.writeSafeStringField("codespace", tx.codespace);
        g.writeNumberField("code", tx.code);
        g.writeSafeStringField("data", tx.data == null ? "" : Hex.upper(tx.data));
        g.writeStringField("raw_log", tx.log);
        g.writeArrayFieldStart("logs");
        g.writeEndArray();
        g.writeSafeStringField("info", "");
        g.writeSafeStringField("gas_wanted", Long.toString(tx.gasLimit));
        g.writeSafeStringField("gas_used", Long.toString(tx.gasUsed));
        g.writeFieldName("tx");
        tx(g, tx, true);
        g.writeSafeStringField("timestamp", Times.rfc3339Seconds(b.timeNanos));
        g.writeFieldName("events");
        CometJson.events(g, tx.events);
        g.writeEndObject();
    }

    /** The gRPC-gateway error body. */
    public static void error(JsonOut g, int code, String message) {
        g.writeStartObject();
        g.writeNumberField("code", code);
        g.writeStringField("message", message);
        g.writeArrayFieldStart("details");
        g.writeEndArray();
        g.writeEndObject();
    }
}
