package dev.weft.devnet.rpc;

import dev.weft.chain.Hex;
import dev.weft.devnet.gen.Block;
import dev.weft.devnet.http.Times;
import dev.weft.devnet.json.JsonOut;
import java.util.Base64;

/**
 * The block of both node APIs. They print the same structure and differ in encodings: CometBFT RPC has upper-case hex
 * hashes, RFC3339Nano times, {@code parts}, numeric flags and omits a zero app version; the REST API (protobuf JSON)
 * has base64 hashes, 0/3/6/9-digit times, {@code part_set_header}, enum names and every default.
 */
public enum BlockJson {
    COMET,
    PROTO;

    private static final Base64.Encoder B64 = Base64.getEncoder();

    private String bytes(byte[] b) {
        return this == COMET ? Hex.upper(b) : B64.encodeToString(b);
    }

    private String time(long nanos) {
        return this == COMET ? Times.rfc3339Nano(nanos) : Times.protoTimestamp(nanos);
    }

    public void blockId(JsonOut g, byte[] hash, byte[] parts) {
        g.writeStartObject();
        g.writeSafeStringField("hash", hash == null ? "" : bytes(hash));
        g.writeObjectFieldStart(this == COMET ? "parts" : "part_set_header");
        g.writeNumberField("total", hash == null ? 0 : 1);
        g.writeSafeStringField("hash", parts == null ? "" : bytes(parts));
        g.writeEndObject();
        g.writeEndObject();
    }

    /** The header; {@code proposer} replaces the proposer address (the SDK block's valcons form) when not null. */
    public void header(JsonOut g, Block b, String chainId, String proposer) {
        g.writeStartObject();
        g.writeObjectFieldStart("version");
        g.writeSafeStringField("block", CometJson.BLOCK_PROTOCOL);
        if (this == PROTO) g.writeSafeStringField("app", "0");
        g.writeEndObject();
        g.writeSafeStringField("chain_id", chainId);
        g.writeSafeStringField("height", Long.toString(b.height));
        g.writeSafeStringField("time", time(b.timeNanos));
        g.writeFieldName("last_block_id");
        blockId(g, b.lastBlockHash, b.lastPartsHash);
        g.writeSafeStringField("last_commit_hash", bytes(b.lastCommitHash));
        g.writeSafeStringField("data_hash", bytes(b.dataHash));
        g.writeSafeStringField("validators_hash", bytes(b.validatorsHash));
        g.writeSafeStringField("next_validators_hash", bytes(b.validatorsHash));
        g.writeSafeStringField("consensus_hash", bytes(b.consensusHash));
        g.writeSafeStringField("app_hash", bytes(b.appHash));
        g.writeSafeStringField("last_results_hash", bytes(b.lastResultsHash));
        g.writeSafeStringField("evidence_hash", bytes(Block.EMPTY_HASH));
        g.writeSafeStringField("proposer_address", proposer != null ? proposer : bytes(b.proposer.address()));
        g.writeEndObject();
    }

    /** The block: header, data (the raw txs, base64), evidence and last commit. */
    public void block(JsonOut g, Block b, String chainId, String proposer) {
        g.writeStartObject();
        g.writeFieldName("header");
        header(g, b, chainId, proposer);
        g.writeObjectFieldStart("data");
        g.writeArrayFieldStart("txs");
        for (int i = 0; i < b.txs.size(); i++) g.writeSafeString(b.txs.get(i).rawBase64);
        g.writeEndArray();
        g.writeEndObject();
        g.writeObjectFieldStart("evidence");
        g.writeArrayFieldStart("evidence");
        g.writeEndArray();
        g.writeEndObject();
        g.writeObjectFieldStart("last_commit");
        g.writeSafeStringField("height", Long.toString(b.height - 1));
        g.writeNumberField("round", 0);
        g.writeFieldName("block_id");
        blockId(g, b.lastBlockHash, b.lastPartsHash);
        g.writeArrayFieldStart("signatures");
        if (b.lastCommitSignature != null) {
            g.writeStartObject();
            if (this == COMET) g.writeNumberField("block_id_flag", 2);
            else g.writeSafeStringField("block_id_flag", "BLOCK_ID_FLAG_COMMIT");
            g.writeSafeStringField("validator_address", bytes(b.proposer.address()));
            g.writeSafeStringField("timestamp", time(b.timeNanos));
            g.writeSafeStringField("signature", B64.encodeToString(b.lastCommitSignature));
            g.writeEndObject();
        }
        g.writeEndArray();
        g.writeEndObject();
        g.writeEndObject();
    }
}
