package dev.weft.devnet.gen;

import com.fasterxml.jackson.core.JsonGenerator;
import dev.weft.chain.CosmosTx;
import dev.weft.chain.proto.ProtoWriter;

import java.io.IOException;
import java.util.List;

/**
 * A tx message with its protobuf encoding (inside TxRaw) and its REST JSON (gRPC-gateway, fields in proto order), both
 * produced from the same fields so that the decoded tx always matches the raw one.
 */
public sealed interface Msg {
  String typeUrl();

  byte[] proto();

  /** The JSON object, {@code "@type"} first, as the REST API decodes it. */
  void json(JsonGenerator g) throws IOException;

  /** The module of the message (the {@code module} attribute of its {@code message} event). */
  String module();

  /** A list of coins as proto JSON: {@code [{"denom","amount"}]}. */
  static void coins(JsonGenerator g, String field, List<CosmosTx.Coin> coins) throws IOException {
    g.writeArrayFieldStart(field);
    for (CosmosTx.Coin c : coins) {
      g.writeStartObject();
      g.writeStringField("denom", c.denom());
      g.writeStringField("amount", c.amount());
      g.writeEndObject();
    }
    g.writeEndArray();
  }

  /** The (always empty here) EIP-2930 access list and EIP-7702 authorisation list of minievm messages; closes the object. */
  private static void emptyLists(JsonGenerator g) throws IOException {
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

    public void json(JsonGenerator g) throws IOException {
      g.writeStartObject();
      g.writeStringField("@type", typeUrl());
      g.writeStringField("from_address", from);
      g.writeStringField("to_address", to);
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
      return new ProtoWriter().string(1, sender).string(2, contractAddr).string(3, input).string(4, value).toByteArray();
    }

    public void json(JsonGenerator g) throws IOException {
      g.writeStartObject();
      g.writeStringField("@type", typeUrl());
      g.writeStringField("sender", sender);
      g.writeStringField("contract_addr", contractAddr);
      g.writeStringField("input", input);
      g.writeStringField("value", value);
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
      return new ProtoWriter().string(1, sender).string(2, code).string(3, value).toByteArray();
    }

    public void json(JsonGenerator g) throws IOException {
      g.writeStartObject();
      g.writeStringField("@type", typeUrl());
      g.writeStringField("sender", sender);
      g.writeStringField("code", code);
      g.writeStringField("value", value);
      emptyLists(g);
    }

    public String module() {
      return "evm";
    }
  }
}
