package dev.weft.devnet.rpc;

import com.fasterxml.jackson.core.JsonGenerator;
import dev.weft.chain.Hex;
import dev.weft.devnet.gen.Block;
import dev.weft.devnet.http.Times;

import java.io.IOException;
import java.util.Base64;

/**
 * The block of both node APIs. They print the same structure and differ in encodings: CometBFT RPC has upper-case hex
 * hashes, RFC3339Nano times, {@code parts}, numeric flags and omits a zero app version; the REST API (protobuf JSON)
 * has base64 hashes, 0/3/6/9-digit times, {@code part_set_header}, enum names and every default.
 */
public enum BlockJson {
  COMET, PROTO;

  private static final Base64.Encoder B64 = Base64.getEncoder();

  private String bytes(byte[] b) {
    return this == COMET ? Hex.upper(b) : B64.encodeToString(b);
  }

  private String time(long nanos) {
    return this == COMET ? Times.rfc3339Nano(nanos) : Times.protoTimestamp(nanos);
  }

  public void blockId(JsonGenerator g, byte[] hash, byte[] parts) throws IOException {
    g.writeStartObject();
    g.writeStringField("hash", hash == null ? "" : bytes(hash));
    g.writeObjectFieldStart(this == COMET ? "parts" : "part_set_header");
    g.writeNumberField("total", hash == null ? 0 : 1);
    g.writeStringField("hash", parts == null ? "" : bytes(parts));
    g.writeEndObject();
    g.writeEndObject();
  }

  /** The header; {@code proposer} replaces the proposer address (the SDK block's valcons form) when not null. */
  public void header(JsonGenerator g, Block b, String chainId, String proposer) throws IOException {
    g.writeStartObject();
    g.writeObjectFieldStart("version");
    g.writeStringField("block", CometJson.BLOCK_PROTOCOL);
    if (this == PROTO) g.writeStringField("app", "0");
    g.writeEndObject();
    g.writeStringField("chain_id", chainId);
    g.writeStringField("height", Long.toString(b.height));
    g.writeStringField("time", time(b.timeNanos));
    g.writeFieldName("last_block_id");
    blockId(g, b.lastBlockHash, b.lastPartsHash);
    g.writeStringField("last_commit_hash", bytes(b.lastCommitHash));
    g.writeStringField("data_hash", bytes(b.dataHash));
    g.writeStringField("validators_hash", bytes(b.validatorsHash));
    g.writeStringField("next_validators_hash", bytes(b.validatorsHash));
    g.writeStringField("consensus_hash", bytes(b.consensusHash));
    g.writeStringField("app_hash", bytes(b.appHash));
    g.writeStringField("last_results_hash", bytes(b.lastResultsHash));
    g.writeStringField("evidence_hash", bytes(Block.EMPTY_HASH));
    g.writeStringField("proposer_address", proposer != null ? proposer : bytes(b.proposer.address()));
    g.writeEndObject();
  }

  /** The block: header, data (the raw txs, base64), evidence and last commit. */
  public void block(JsonGenerator g, Block b, String chainId, String proposer) throws IOException {
    g.writeStartObject();
    g.writeFieldName("header");
    header(g, b, chainId, proposer);
    g.writeObjectFieldStart("data");
    g.writeArrayFieldStart("txs");
    for (int i = 0; i < b.txs.size(); i++) g.writeString(b.txs.get(i).rawBase64);
    g.writeEndArray();
    g.writeEndObject();
    g.writeObjectFieldStart("evidence");
    g.writeArrayFieldStart("evidence");
    g.writeEndArray();
    g.writeEndObject();
    g.writeObjectFieldStart("last_commit");
    g.writeStringField("height", Long.toString(b.height - 1));
    g.writeNumberField("round", 0);
    g.writeFieldName("block_id");
    blockId(g, b.lastBlockHash, b.lastPartsHash);
    g.writeArrayFieldStart("signatures");
    if (b.lastCommitSignature != null) {
      g.writeStartObject();
      if (this == COMET) g.writeNumberField("block_id_flag", 2);
      else g.writeStringField("block_id_flag", "BLOCK_ID_FLAG_COMMIT");
      g.writeStringField("validator_address", bytes(b.proposer.address()));
      g.writeStringField("timestamp", time(b.timeNanos));
      g.writeStringField("signature", B64.encodeToString(b.lastCommitSignature));
      g.writeEndObject();
    }
    g.writeEndArray();
    g.writeEndObject();
    g.writeEndObject();
  }
}
