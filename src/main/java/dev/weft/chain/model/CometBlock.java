package dev.weft.chain.model;

import com.fasterxml.jackson.databind.JsonNode;
import dev.weft.chain.Hex;

import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

/**
 * What ingestion needs from CometBFT {@code /block}: header facts and the raw txs.
 *
 * @param timeNs block time as nanoseconds since the epoch (exact, unlike PostgreSQL's microseconds)
 * @param txs    raw tx bytes in block order
 */
public record CometBlock(long height, String chainId, byte[] hash, long timeNs, byte[] proposerAddress, List<byte[]> txs) {

  /** Parses the {@code result} object of {@code /block}. */
  public static CometBlock parse(JsonNode result) {
    JsonNode block = result.path("block");
    JsonNode header = block.path("header");
    if (header.isMissingNode()) throw new IllegalArgumentException("block without header");
    long height = NodeJson.requiredLong(header, "height");
    String hash = NodeJson.text(result.path("block_id"), "hash", "");
    List<byte[]> txs = new ArrayList<>();
    Base64.Decoder b64 = Base64.getDecoder();
    for (JsonNode t : NodeJson.array(block.path("data"), "txs")) txs.add(b64.decode(t.asText()));
    String proposer = NodeJson.text(header, "proposer_address", "");
    return new CometBlock(height, NodeJson.text(header, "chain_id", ""), Hex.decode(hash),
        Rfc3339.parseNanos(NodeJson.text(header, "time", "")), proposer.isEmpty() ? new byte[0] : Hex.decode(proposer), txs);
  }
}
