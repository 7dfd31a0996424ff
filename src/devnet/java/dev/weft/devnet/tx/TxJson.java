package dev.weft.devnet.tx;

import dev.weft.chain.CosmosTx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

/**
 * The Cosmos SDK's {@code TxEncode} ({@code POST /cosmos/tx/v1beta1/encode}): a tx as proto JSON
 * ({@code {"tx": {"body": {"messages": [{"@type", …}], "memo", "timeout_height"}, "auth_info": {"signer_infos",
 * "fee"}, "signatures"}}}) to its TxRaw bytes. Messages may be written as {@code /v2/fungible/msgs} emits them
 * (amino/snake-case JSON, integers as numbers); {@code auth_info} and {@code signatures} may be left out (an unsigned
 * tx, which the devnet accepts).
 */
public final class TxJson {
    private TxJson() {}

    /** The TxRaw; throws IllegalArgumentException with a message for the client. */
    public static byte[] encode(JsonObject request) {
        JsonObject tx = object(request, "tx");
        JsonObject body = object(tx, "body");
        JsonArray messages = body.getJsonArray("messages", new JsonArray());
        List<CosmosTx.Any> anys = new ArrayList<>();
        for (Object o : messages) {
            if (!(o instanceof JsonObject m)) throw new IllegalArgumentException("body.messages must hold objects");
            String url = m.getString("@type");
            MsgTypes.Type type = url == null ? null : MsgTypes.of(url);
            if (type == null) throw new IllegalArgumentException("unable to resolve type URL " + url);
            JsonObject value = m.copy();
            value.remove("@type");
            try {
                anys.add(new CosmosTx.Any(url, type.schema().encode(value)));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(url + ": " + e.getMessage());
            }
        }
        JsonObject auth = tx.getJsonObject("auth_info", new JsonObject());
        List<CosmosTx.SignerInfo> signers = new ArrayList<>();
        for (Object o : auth.getJsonArray("signer_infos", new JsonArray())) {
            JsonObject s = (JsonObject) o;
            JsonObject pk = s.getJsonObject("public_key");
            signers.add(new CosmosTx.SignerInfo(
                    pk == null ? "" : pk.getString("@type", ""),
                    pk == null ? new byte[0] : Base64.getDecoder().decode(pk.getString("key", "")),
                    ProtoSchema.uint64("sequence", s.getValue("sequence", "0"))));
        }
        JsonObject fee = auth.getJsonObject("fee", new JsonObject());
        List<CosmosTx.Coin> coins = new ArrayList<>();
        for (Object o : fee.getJsonArray("amount", new JsonArray())) {
            JsonObject c = (JsonObject) o;
            coins.add(new CosmosTx.Coin(c.getString("denom", ""), c.getString("amount", "0")));
        }
        List<byte[]> sigs = new ArrayList<>();
        for (Object o : tx.getJsonArray("signatures", new JsonArray()))
            sigs.add(Base64.getDecoder().decode(o.toString()));
        return new CosmosTx(
                        anys,
                        body.getString("memo", ""),
                        ProtoSchema.uint64("timeout_height", body.getValue("timeout_height", "0")),
                        signers,
                        new CosmosTx.Fee(
                                coins,
                                ProtoSchema.uint64("gas_limit", fee.getValue("gas_limit", "0")),
                                fee.getString("payer", ""),
                                fee.getString("granter", "")),
                        sigs)
                .encode();
    }

    private static JsonObject object(JsonObject o, String field) {
        Object v = o.getValue(field);
        if (!(v instanceof JsonObject j)) throw new IllegalArgumentException(field + " must be an object");
        return j;
    }
}
