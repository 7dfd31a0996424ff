package dev.weft.devnet.rpc;

import dev.weft.devnet.gen.Block;
import dev.weft.devnet.gen.DevnetChain;
import dev.weft.devnet.gen.Validator;
import dev.weft.devnet.http.Json;
import dev.weft.devnet.http.Times;
import dev.weft.devnet.mempool.Broadcaster;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;

/**
 * The CometBFT RPC methods that describe the chain rather than a block's content: {@code header}, {@code commit},
 * {@code genesis}, {@code abci_info}, {@code num_unconfirmed_txs} and {@code block_search}, fields in the order of
 * CometBFT 0.38's result structs.
 */
final class CometChainInfo {
    /** The application {@code abci_info} names (BaseApp's name and version). */
    static final String APP_NAME = "minitia";

    static final String APP_VERSION = "v1.1.6";

    private final DevnetChain chain;
    private final Broadcaster broadcaster;
    private final int searchWindow;

    CometChainInfo(DevnetChain chain, Broadcaster broadcaster, int searchWindow) {
        this.chain = chain;
        this.broadcaster = broadcaster;
        this.searchWindow = searchWindow;
    }

    /** {@code header}: {@code {"header":{…}}}, the block's header alone. */
    Json.Body header(long h) {
        Block b = chain.block(h);
        String chainId = chain.spec().chainId();
        return g -> {
            g.writeStartObject();
            g.writeFieldName("header");
            BlockJson.COMET.header(g, b, chainId, null);
            g.writeEndObject();
        };
    }

    /**
     * {@code commit}: the signed header of height h (its header, and the commit of its one validator, signed when the
     * next block was proposed); {@code canonical} is false for the latest height, whose commit is only the node's seen one.
     */
    Json.Body commit(long h) {
        Block b = chain.block(h);
        String chainId = chain.spec().chainId();
        boolean canonical = h < chain.head();
        byte[] signature = chain.commitSignature(h);
        long signedAt = chain.blockTimeNanos(h + 1);
        return g -> {
            g.writeStartObject();
            g.writeObjectFieldStart("signed_header");
            g.writeFieldName("header");
            BlockJson.COMET.header(g, b, chainId, null);
            g.writeObjectFieldStart("commit");
            g.writeSafeStringField("height", Long.toString(h));
            g.writeNumberField("round", 0);
            g.writeFieldName("block_id");
            BlockJson.COMET.blockId(g, b.hash, b.partsHash);
            g.writeArrayFieldStart("signatures");
            g.writeStartObject();
            g.writeNumberField("block_id_flag", 2);
            g.writeSafeStringField("validator_address", b.proposer.addressHex());
            g.writeSafeStringField("timestamp", Times.rfc3339Nano(signedAt));
            g.writeSafeStringField("signature", Base64.getEncoder().encodeToString(signature));
            g.writeEndObject();
            g.writeEndArray();
            g.writeEndObject();
            g.writeEndObject();
            g.writeBooleanField("canonical", canonical);
            g.writeEndObject();
        };
    }

    /**
     * {@code genesis}: the genesis document (time, chain id, initial height, consensus parameters, the validators, app
     * hash); the app state is the empty object (a real chain's is megabytes, and clients page it with
     * {@code genesis_chunked}).
     */
    Json.Body genesis() {
        List<Validator> vals = chain.genesis().validators();
        String time = Times.rfc3339Nano(chain.spec().genesisTime().toEpochMilli() * 1_000_000L);
        String chainId = chain.spec().chainId();
        return g -> {
            g.writeStartObject();
            g.writeObjectFieldStart("genesis");
            g.writeSafeStringField("genesis_time", time);
            g.writeSafeStringField("chain_id", chainId);
            g.writeSafeStringField("initial_height", "1");
            g.writeFieldName("consensus_params");
            g.writeRawValue(
                    "{\"block\":{\"max_bytes\":\"22020096\",\"max_gas\":\"-1\"},"
                            + "\"evidence\":{\"max_age_num_blocks\":\"100000\",\"max_age_duration\":\"172800000000000\",\"max_bytes\":\"1048576\"},"
                            + "\"validator\":{\"pub_key_types\":[\"ed25519\"]},\"version\":{\"app\":\"0\"},\"abci\":{\"vote_extensions_enable_height\":\"0\"}}");
            g.writeArrayFieldStart("validators");
            for (Validator v : vals) {
                g.writeStartObject();
                g.writeSafeStringField("address", v.addressHex());
                CometJson.pubKey(g, v);
                g.writeSafeStringField("power", "1");
                g.writeStringField("name", v.moniker());
                g.writeEndObject();
            }
            g.writeEndArray();
            g.writeSafeStringField("app_hash", "");
            g.writeFieldName("app_state");
            g.writeRawValue("{}");
            g.writeEndObject();
            g.writeEndObject();
        };
    }

    /**
     * {@code abci_info}: the application's name and version, the last committed height and the app hash after it
     * (every field omitted when empty, as the ABCI response's JSON tags say; app_version 0 is left out).
     */
    Json.Body abciInfo() {
        long head = chain.head();
        String appHash = head < 1 ? null : Base64.getEncoder().encodeToString(chain.appHash(head + 1));
        return g -> {
            g.writeStartObject();
            g.writeObjectFieldStart("response");
            g.writeStringField("data", APP_NAME);
            g.writeStringField("version", APP_VERSION);
            if (head > 0) {
                g.writeSafeStringField("last_block_height", Long.toString(head));
                g.writeSafeStringField("last_block_app_hash", appHash);
            }
            g.writeEndObject();
            g.writeEndObject();
        };
    }

    /** {@code num_unconfirmed_txs}: the mempool's count and bytes; {@code txs} is null (this method never lists them). */
    Json.Body numUnconfirmedTxs() {
        long[] pending = broadcaster == null ? new long[] {0, 0} : broadcaster.pending();
        return g -> {
            g.writeStartObject();
            g.writeSafeStringField("n_txs", Long.toString(pending[0]));
            g.writeSafeStringField("total", Long.toString(pending[0]));
            g.writeSafeStringField("total_bytes", Long.toString(pending[1]));
            g.writeNullField("txs");
            g.writeEndObject();
        };
    }

    /** The query with its {@code block.height} conditions as the height conditions {@link TxQuery} knows. */
    private static TxQuery heightAsTxHeight(TxQuery q) {
        return new TxQuery(q.conditions().stream()
                .map(c -> c.key().equals("block.height") ? new TxQuery.Condition("tx.height", c.op(), c.value()) : c)
                .toList());
    }

    /**
     * {@code block_search}: blocks whose {@code block.height} and block-level (finalize) events match the query, from at
     * most the search window's blocks (the highest its height conditions allow), paged like {@code tx_search};
     * {@code {blocks: [{block_id, block}], total_count}}. Runs on a worker thread.
     */
    Json.Body blockSearch(Map<String, String> p) {
        TxQuery q;
        try {
            q = heightAsTxHeight(TxQuery.parse(p.get("query")));
        } catch (IllegalArgumentException e) {
            throw CometRpcServer.internal(e.getMessage());
        }
        String order = p.getOrDefault("order_by", "");
        if (!order.isEmpty() && !order.equals("asc") && !order.equals("desc")) {
            throw CometRpcServer.internal("expected order_by to be either `asc` or `desc` or empty");
        }
        long to = q.maxHeight(chain.head());
        long from = Math.max(q.minHeight(1), to - searchWindow + 1);
        List<Block> found = new ArrayList<>();
        for (long h = from; h <= to; h++) {
            Block b = chain.block(h);
            if (q.matchesBlock(h, b.finalizeEvents)) found.add(b);
        }
        if (order.equals("desc")) java.util.Collections.reverse(found);
        int perPage = CometMethods.perPage(p.get("per_page"));
        int page = CometMethods.page(p.get("page"), found.size(), perPage);
        List<Block> slice =
                found.subList(Math.min(found.size(), (page - 1) * perPage), Math.min(found.size(), page * perPage));
        String chainId = chain.spec().chainId();
        int total = found.size();
        return g -> {
            g.writeStartObject();
            g.writeArrayFieldStart("blocks");
            for (Block b : slice) CometJson.block(g, b, chainId);
            g.writeEndArray();
            g.writeSafeStringField("total_count", Integer.toString(total));
            g.writeEndObject();
        };
    }
}
