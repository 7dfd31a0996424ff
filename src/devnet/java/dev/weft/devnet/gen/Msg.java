package dev.weft.devnet.gen;

import dev.weft.chain.CosmosTx;
import dev.weft.chain.proto.ProtoWriter;
import dev.weft.devnet.json.JsonOut;
import java.util.List;

/**
 * A tx message with its protobuf encoding (inside TxRaw) and its REST JSON (gRPC-gateway, fields in proto order), both
 * produced from the same fields so that the decoded tx always matches the raw one.
 */
public sealed interface Msg {
    String typeUrl();

    byte[] proto();

    /** The JSON object, {@code "@type"} first, as the REST API decodes it. */
    void json(JsonOut g);

    /** The module of the message (the {@code module} attribute of its {@code message} event). */
    String module();

    /** A list of coins as proto JSON: {@code [{"denom","amount"}]}. */
    static void coins(JsonOut g, String field, List<CosmosTx.Coin> coins) {
        g.writeArrayFieldStart(field);
        for (CosmosTx.Coin c : coins) {
            g.writeStartObject();
            g.writeSafeStringField("denom", c.denom());
            g.writeSafeStringField("amount", c.amount());
            g.writeEndObject();
        }
        g.writeEndArray();
    }

    /** The (always empty here) EIP-2930 access list and EIP-7702 authorisation list of minievm messages; closes the object. */
    private static void emptyLists(JsonOut g) {
        g.writeArrayFieldStart("access_list");
        g.writeEndArray();
        g.writeArrayFieldStart("auth_list");
        g.writeEndArray();
        g.writeEndObject();
    }

    /** {@code /cosmos.bank.v1beta1.MsgSend}: from_address=1, to_address=2, amount=3 (repeated Coin). */
    record Send(String from, String to, List<CosmosTx.Coin> amount) implements Msg {
        public String typeUrl() {
            return "/cosmos.bank.v1beta1.MsgSend";
        }

        public byte[] proto() {
            ProtoWriter w = new ProtoWriter().string(1, from).string(2, to);
            for (CosmosTx.Coin c : amount) w.message(3, CosmosTx.coin(c));
            return w.toByteArray();
        }

        public void json(JsonOut g) {
            g.writeStartObject();
            g.writeSafeStringField("@type", typeUrl());
            g.writeSafeStringField("from_address", from);
            g.writeSafeStringField("to_address", to);
            coins(g, "amount", amount);
            g.writeEndObject();
        }

        public String module() {
            return "bank";
        }
    }

    /** {@code /minievm.evm.v1.MsgCall}: sender=1, contract_addr=2 (EIP-55 hex), input=3 (hex), value=4 (decimal). */
    record Call(String sender, String contractAddr, String input, String value) implements Msg {
        public String typeUrl() {
            return "/minievm.evm.v1.MsgCall";
        }

        public byte[] proto() {
            return new ProtoWriter()
                    .string(1, sender)
                    .string(2, contractAddr)
                    .string(3, input)
                    .string(4, value)
                    .toByteArray();
        }

        public void json(JsonOut g) {
            g.writeStartObject();
            g.writeSafeStringField("@type", typeUrl());
            g.writeSafeStringField("sender", sender);
            g.writeSafeStringField("contract_addr", contractAddr);
            g.writeSafeStringField("input", input);
            g.writeSafeStringField("value", value);
            emptyLists(g);
        }

        public String module() {
            return "evm";
        }
    }

    /** {@code /minievm.evm.v1.MsgCreate}: sender=1, code=2 (hex), value=3 (decimal). */
    record Create(String sender, String code, String value) implements Msg {
        public String typeUrl() {
            return "/minievm.evm.v1.MsgCreate";
        }

        public byte[] proto() {
            return new ProtoWriter()
                    .string(1, sender)
                    .string(2, code)
                    .string(3, value)
                    .toByteArray();
        }

        public void json(JsonOut g) {
            g.writeStartObject();
            g.writeSafeStringField("@type", typeUrl());
            g.writeSafeStringField("sender", sender);
            g.writeSafeStringField("code", code);
            g.writeSafeStringField("value", value);
            emptyLists(g);
        }

        public String module() {
            return "evm";
        }
    }

    /**
     * A message of a tx submitted to the devnet: its protobuf bytes as received, the module that executed it, and its
     * proto JSON (with {@code "@type"} first) as that module renders it.
     */
    record Submitted(String typeUrl, byte[] proto, String module, String jsonText) implements Msg {
        public void json(JsonOut g) {
            g.writeRawValue(jsonText);
        }
    }
}
