package dev.weft.devnet.traffic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.devnet.DevnetEndpoints;
import dev.weft.node.WeftNode;
import dev.weft.testsupport.LocalHttp;
import dev.weft.testsupport.WeftExtension;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The generated history of weft-l1-1 (bank sends, IBC transfers to weft-move-1, InitiaDEX swaps) and weft-move-1 (coin
 * and fungible-asset transfers, NFT collections, mints and transfers, object transfers), read back from the chains'
 * own CometBFT RPC: every kind is there, the relayer completed every packet within the history, and the same seed
 * gives the same blocks.
 */
class GeneratedTrafficTest {
    @RegisterExtension
    static final WeftExtension weft = new WeftExtension();

    static final int BLOCKS = 40;
    static final LocalHttp http = new LocalHttp();

    static WeftNode start() {
        return weft.start(weft.config()
                .roles("devnet")
                .set("devnet.mode", "history")
                .set("devnet.history_blocks", BLOCKS)
                .set("devnet.genesis_time", "2026-01-01T00:00:00Z"));
    }

    static int rpc(WeftNode n, String chain) {
        return DevnetEndpoints.of(n.context().info()).chain(chain).orElseThrow().rpcPort();
    }

    static JsonObject result(int port, String path) {
        return new JsonObject(http.get(port, path).body()).getJsonObject("result");
    }

    /** Counts of what the blocks 1..BLOCKS of a chain hold: message actions, event types, move type tags. */
    static Map<String, Integer> kinds(int port) {
        Map<String, Integer> out = new TreeMap<>();
        for (int h = 1; h <= BLOCKS; h++) {
            JsonArray txs = result(port, "/block_results?height=" + h).getJsonArray("txs_results");
            if (txs == null) continue;
            for (Object t : txs) {
                JsonObject r = (JsonObject) t;
                assertEquals(0, r.getInteger("code"), r.encode());
                out.merge("txs", 1, Integer::sum);
                for (Object e : r.getJsonArray("events")) {
                    JsonObject ev = (JsonObject) e;
                    String type = ev.getString("type");
                    out.merge(type, 1, Integer::sum);
                    for (Object a : ev.getJsonArray("attributes")) {
                        JsonObject at = (JsonObject) a;
                        if (type.equals("message") && at.getString("key").equals("action"))
                            out.merge(at.getString("value"), 1, Integer::sum);
                        if (type.equals("move") && at.getString("key").equals("type_tag"))
                            out.merge(at.getString("value"), 1, Integer::sum);
                        if (type.equals("execute") && at.getString("key").equals("function_name"))
                            out.merge("execute " + at.getString("value"), 1, Integer::sum);
                    }
                }
            }
        }
        return out;
    }

    /** Each block's hash and its txs, for the determinism check. */
    static List<String> blocks(int port) {
        List<String> out = new ArrayList<>();
        for (int h = 1; h <= BLOCKS; h++) {
            JsonObject b = result(port, "/block?height=" + h);
            out.add(b.getJsonObject("block_id").getString("hash") + " "
                    + b.getJsonObject("block").getJsonObject("header").getString("data_hash") + " "
                    + b.getJsonObject("block").getJsonObject("data").getValue("txs"));
        }
        return out;
    }

    @Test
    @DisplayName("weft-l1-1 and weft-move-1 have a generated history of every kind, relayed, and the same seed twice")
    void generatedHistory() {
        WeftNode first = start();
        Map<String, Integer> l1 = kinds(rpc(first, "weft-l1-1"));
        Map<String, Integer> move = kinds(rpc(first, "weft-move-1"));
        List<String> l1Blocks = blocks(rpc(first, "weft-l1-1"));
        List<String> moveBlocks = blocks(rpc(first, "weft-move-1"));
        // the generated chain's own history is untouched: no relayed tx lands there
        int evm = rpc(first, "weft-devnet-1");
        for (int h = 2; h <= BLOCKS; h++) {
            JsonArray txs = result(evm, "/block_results?height=" + h).getJsonArray("txs_results");
            if (txs == null) continue;
            for (Object t : txs)
                for (Object e : ((JsonObject) t).getJsonArray("events"))
                    assertTrue(!((JsonObject) e).getString("type").equals("recv_packet"), "a packet on weft-devnet-1");
        }
        weft.stop(first);

        assertTrue(l1.getOrDefault("txs", 0) > BLOCKS, l1.toString());
        assertTrue(l1.getOrDefault("/cosmos.bank.v1beta1.MsgSend", 0) > 0, l1.toString());
        assertTrue(l1.getOrDefault("/ibc.applications.transfer.v1.MsgTransfer", 0) > 0, l1.toString());
        assertTrue(l1.getOrDefault("/initia.move.v1.MsgExecute", 0) > 0, l1.toString());
        assertTrue(l1.getOrDefault("0x1::dex::SwapEvent", 0) > 0, l1.toString());
        assertTrue(l1.getOrDefault("ibc_transfer", 0) > 0, l1.toString());
        // every packet sent was received on weft-move-1 and acknowledged on the L1 within the history
        int sent = l1.get("send_packet");
        assertEquals(sent, l1.getOrDefault("acknowledge_packet", 0), l1.toString());
        assertEquals(sent, move.getOrDefault("recv_packet", 0), move.toString());

        assertTrue(move.getOrDefault("txs", 0) > BLOCKS, move.toString());
        assertTrue(move.getOrDefault("execute transfer", 0) > 0, move.toString());
        assertTrue(move.getOrDefault("execute transfer_call", 0) > 0, move.toString());
        assertTrue(move.getOrDefault("execute mint", 0) > 0, move.toString());
        assertTrue(move.getOrDefault("0x1::collection::CreateCollectionEvent", 0) > 0, move.toString());
        assertTrue(move.getOrDefault("0x1::collection::MintEvent", 0) > 0, move.toString());
        assertTrue(move.getOrDefault("0x1::object::TransferEvent", 0) > 0, move.toString());
        assertTrue(move.getOrDefault("0x1::fungible_asset::DepositEvent", 0) > 0, move.toString());
        assertTrue(move.getOrDefault("0x1::fungible_asset::WithdrawOwnerEvent", 0) > 0, move.toString());

        WeftNode second = start();
        try {
            assertEquals(l1Blocks, blocks(rpc(second, "weft-l1-1")));
            assertEquals(moveBlocks, blocks(rpc(second, "weft-move-1")));
        } finally {
            weft.stop(second);
        }
    }
}
