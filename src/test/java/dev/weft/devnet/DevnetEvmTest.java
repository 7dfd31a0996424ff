package dev.weft.devnet;

import static dev.weft.devnet.DevnetHarness.hex;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.devnet.gen.DevnetChain;
import dev.weft.devnet.gen.Tx;
import dev.weft.testsupport.WeftExtension;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.function.Predicate;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** EVM JSON-RPC beyond blocks: eth_getLogs filters, eth_getCode, minievm's cosmos_ hash mappings. */
class DevnetEvmTest {
    @RegisterExtension
    static final WeftExtension weft = new WeftExtension();

    private static final String TRANSFER = "0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef";
    private static DevnetHarness devnet;
    private static DevnetChain chain;

    @BeforeAll
    static void start() {
        devnet = DevnetHarness.start(weft, DevnetHarness.history(40));
        chain = devnet.replica();
    }

    /** Every log of the receipts of blocks [from, to] that the predicate keeps, in order. */
    private static JsonArray receiptLogs(long from, long to, Predicate<JsonObject> keep) {
        JsonArray out = new JsonArray();
        for (long h = from; h <= to; h++) {
            for (Object r : devnet.eth("eth_getBlockReceipts", hex(h)).getJsonArray("result")) {
                for (Object l : ((JsonObject) r).getJsonArray("logs"))
                    if (keep.test((JsonObject) l)) out.add((JsonObject) l);
            }
        }
        return out;
    }

    private static JsonArray logs(JsonObject filter) {
        JsonObject r = devnet.eth("eth_getLogs", filter);
        assertTrue(r.containsKey("result"), r.encode());
        return r.getJsonArray("result");
    }

    private static String topic(JsonObject log, int i) {
        JsonArray t = log.getJsonArray("topics");
        return t.size() > i ? t.getString(i) : null;
    }

    @Test
    @DisplayName(
            "eth_getLogs: the receipts' logs filtered by block range, address (one or many), topics (null wildcards, OR-arrays), blockHash")
    void getLogs() {
        JsonArray transfers = receiptLogs(1, 12, l -> TRANSFER.equals(topic(l, 0)));
        assertTrue(transfers.size() > 20);
        JsonObject range = new JsonObject().put("fromBlock", "0x1").put("toBlock", "0xc");
        assertEquals(transfers, logs(range.copy().put("topics", new JsonArray().add(TRANSFER))));
        WireShape.unordered()
                .absent("blockTimestamp")
                .check(
                        Fixtures.object("evm-anvil/anvil_getLogs_transfer_all.json")
                                .getJsonArray("result")
                                .getJsonObject(0),
                        transfers.getJsonObject(0));

        String token = transfers.getJsonObject(transfers.size() - 1).getString("address");
        String other = transfers.stream()
                .map(l -> ((JsonObject) l).getString("address"))
                .filter(a -> !a.equals(token))
                .findFirst()
                .orElseThrow();
        assertEquals(
                receiptLogs(1, 12, l -> l.getString("address").equals(token)),
                logs(range.copy().put("address", token)));
        assertEquals(
                receiptLogs(
                        1,
                        12,
                        l -> l.getString("address").equals(token)
                                || l.getString("address").equals(other)),
                logs(range.copy().put("address", new JsonArray().add(other).add(token))));

        // a sender in position 1 with a wildcard before it; two alternative recipients in position 2
        String from = topic(transfers.getJsonObject(3), 1);
        assertEquals(
                receiptLogs(1, 12, l -> from.equals(topic(l, 1))),
                logs(range.copy().put("topics", new JsonArray().addNull().add(from))));
        String to1 = topic(transfers.getJsonObject(4), 2);
        String to2 = topic(transfers.getJsonObject(9), 2);
        assertEquals(
                receiptLogs(
                        1,
                        12,
                        l -> TRANSFER.equals(topic(l, 0)) && (to1.equals(topic(l, 2)) || to2.equals(topic(l, 2)))),
                logs(range.copy()
                        .put(
                                "topics",
                                new JsonArray()
                                        .add(TRANSFER)
                                        .addNull()
                                        .add(new JsonArray().add(to1).add(to2)))));

        String blockHash = transfers.getJsonObject(5).getString("blockHash");
        long h = Long.decode(transfers.getJsonObject(5).getString("blockNumber"));
        assertEquals(receiptLogs(h, h, l -> true), logs(new JsonObject().put("blockHash", blockHash)));
        assertEquals(receiptLogs(40, 40, l -> true), logs(new JsonObject()));

        assertEquals(
                "block range exceeded 1000",
                devnet.eth(
                                "eth_getLogs",
                                new JsonObject().put("fromBlock", "0x1").put("toBlock", hex(1001)))
                        .getJsonObject("error")
                        .getString("message"));
        assertEquals(
                "invalid block range params",
                devnet.eth(
                                "eth_getLogs",
                                new JsonObject().put("fromBlock", "0x5").put("toBlock", "0x4"))
                        .getJsonObject("error")
                        .getString("message"));
        JsonArray five =
                new JsonArray().add(TRANSFER).addNull().addNull().addNull().addNull();
        assertEquals(
                "exceed max topics",
                devnet.eth("eth_getLogs", range.copy().put("topics", five))
                        .getJsonObject("error")
                        .getString("message"));
    }

    @Test
    @DisplayName("eth_getCode: the deployed contracts have code, accounts 0x")
    void getCode() {
        String token = chain.genesis().tokens().get(0).contract().hex();
        assertEquals(
                "0x6080604052600080fd",
                devnet.eth("eth_getCode", token, "latest").getString("result"));
        assertEquals(
                "0x6080604052600080fd",
                devnet.eth("eth_getCode", chain.genesis().router().hex(), "0x5").getString("result"));
        assertEquals(
                "0x",
                devnet.eth("eth_getCode", chain.genesis().actor(0).hex(), "latest")
                        .getString("result"));
    }

    @Test
    @DisplayName(
            "minievm's cosmos_cosmosTxHashByTxHash / cosmos_txHashByCosmosTxHash link the two hashes of an EVM tx; zero hashes otherwise")
    void hashMappings() {
        devnet.rpc("/block?height=6"); // lookups by hash find the blocks generated so far
        Tx evm = chain.block(6).evmTxs.get(0);
        assertEquals(
                evm.hash.toLowerCase(),
                devnet.eth("cosmos_cosmosTxHashByTxHash", evm.evm.hash()).getString("result"));
        assertEquals(
                evm.evm.hash(),
                devnet.eth("cosmos_txHashByCosmosTxHash", evm.hash).getString("result"));
        assertEquals(
                evm.evm.hash(),
                devnet.eth("cosmos_txHashByCosmosTxHash", evm.hash.toLowerCase())
                        .getString("result"));
        assertEquals(
                "0".repeat(64),
                devnet.eth("cosmos_cosmosTxHashByTxHash", "0x" + "ab".repeat(32))
                        .getString("result"));
        Tx cosmosOnly = null;
        for (Tx t : chain.block(6).txs) if (t.evm == null && cosmosOnly == null) cosmosOnly = t;
        assertEquals(
                "0x" + "0".repeat(64),
                devnet.eth("cosmos_txHashByCosmosTxHash", cosmosOnly.hash).getString("result"));
    }
}
