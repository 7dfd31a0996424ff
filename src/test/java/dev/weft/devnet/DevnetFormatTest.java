package dev.weft.devnet;

import static dev.weft.devnet.DevnetHarness.hex;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.devnet.gen.DevnetChain;
import dev.weft.devnet.gen.Event;
import dev.weft.devnet.gen.TxPlan.Kind;
import dev.weft.testsupport.WeftExtension;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The devnet's answers held against recorded real ones: CometBFT 0.38 (tendermint-rs kvstore recordings, whose keys
 * were re-sorted, so names are compared as sets), Initia minievm (tx-decoder and rollytics recordings) and Anvil (raw
 * JSON-RPC answers; geth-based nodes print receipts and blocks as Go maps, so those compare as sets, frames in order).
 */
class DevnetFormatTest {
    @RegisterExtension
    static final WeftExtension weft = new WeftExtension();

    private static final String COMET = "cometbft-v0.38-kvstore-tendermint-rs/";
    private static final String MINIEVM = "initia-minievm-tx-decoder-fixtures/";
    private static final String ANVIL = "evm-anvil/";
    private static DevnetHarness devnet;
    private static DevnetChain chain;

    @BeforeAll
    static void start() {
        devnet = DevnetHarness.start(weft, DevnetHarness.history(200));
        chain = devnet.replica();
    }

    @Test
    @DisplayName("/status has CometBFT's fields and encodings")
    void status() {
        // ids are echoed (the recordings used UUIDs; the URI form answers -1)
        WireShape.unordered().typeMayDiffer("id").check(Fixtures.object(COMET + "status.json"), devnet.rpc("/status"));
    }

    @Test
    @DisplayName(
            "/block: header hashes upper hex, txs base64, commit signatures, int64 as strings and int32 as numbers")
    void block() {
        JsonObject real = Fixtures.object(COMET + "block_at_height_10.json");
        // the app version is 0 on a Cosmos SDK rollup, and CometBFT omits zero fields
        WireShape.unordered()
                .typeMayDiffer("id")
                .absent("result.block.header.version.app")
                .check(real, devnet.rpc("/block?height=10"));
        WireShape.unordered()
                .typeMayDiffer("id")
                .absent("result.block.header.version.app")
                .check(Fixtures.object(COMET + "block_at_height_1.json"), devnet.rpc("/block?height=1"));
        JsonObject first = devnet.rpc("/block?height=1").getJsonObject("result").getJsonObject("block");
        assertEquals(new JsonArray(), first.getJsonObject("last_commit").getJsonArray("signatures"));
        assertEquals(
                "", first.getJsonObject("header").getJsonObject("last_block_id").getString("hash"));
    }

    @Test
    @DisplayName("/blockchain: block metas newest first")
    void blockchain() {
        JsonObject answer = devnet.rpc("/blockchain?minHeight=1&maxHeight=10");
        WireShape.unordered()
                .typeMayDiffer("id")
                .absent("result.block_metas[].header.version.app")
                .check(Fixtures.object(COMET + "blockchain_from_1_to_10.json"), answer);
        JsonArray metas = answer.getJsonObject("result").getJsonArray("block_metas");
        assertEquals(10, metas.size());
        assertEquals("10", metas.getJsonObject(0).getJsonObject("header").getString("height"));
        assertEquals("1", metas.getJsonObject(9).getJsonObject("header").getString("height"));
    }

    @Test
    @DisplayName(
            "/block_results of an empty block: txs_results null (a nil slice); a Cosmos SDK chain adds block events and parameters")
    void emptyBlockResults() {
        long empty = Fixtures.firstEmptyHeight(chain);
        JsonObject answer = devnet.rpc("/block_results?height=" + empty);
        WireShape.unordered()
                .typeMayDiffer(
                        "id", "result.finalize_block_events", "result.consensus_param_updates", "result.app_hash")
                .check(Fixtures.object(COMET + "block_results_at_height_10.json"), answer);
        JsonObject r = answer.getJsonObject("result");
        assertTrue(r.containsKey("txs_results") && r.getValue("txs_results") == null, r.encode());
        assertTrue(r.containsKey("validator_updates") && r.getValue("validator_updates") == null);
        for (Object o : r.getJsonArray("finalize_block_events")) {
            JsonArray attrs = ((JsonObject) o).getJsonArray("attributes");
            JsonObject mode = attrs.getJsonObject(attrs.size() - 1);
            assertEquals("mode", mode.getString("key"));
            assertTrue(List.of("BeginBlock", "EndBlock").contains(mode.getString("value")));
            assertEquals(false, mode.getBoolean("index"));
        }
    }

    @Test
    @DisplayName("/tx_search and /tx return CometBFT ResultTx objects (index a number, total_count a string)")
    void txSearch() {
        DevnetChain.TxRef failed = Fixtures.first(chain, Kind.FAIL_OUT_OF_GAS);
        JsonObject answer = devnet.rpc("/tx_search?query=%22tx.height=" + failed.block().height + "%22");
        String value = "result.txs[].tx_result.events[].attributes[].value"; // free text
        WireShape.unordered()
                .typeMayDiffer("id", value)
                .check(Fixtures.object(COMET + "tx_search_no_prove.json"), failed(answer));
        JsonObject one = devnet.rpc("/tx?hash=0x" + failed.tx().hash);
        WireShape.unordered()
                .typeMayDiffer("tx_result.events[].attributes[].value")
                .check(
                        Fixtures.object(COMET + "tx_search_no_prove.json")
                                .getJsonObject("result")
                                .getJsonArray("txs")
                                .getJsonObject(0),
                        one.getJsonObject("result"));
    }

    /** The answer with only its failed txs (the kvstore recording has {@code data: null}, as a failed tx has). */
    private static JsonObject failed(JsonObject answer) {
        JsonObject copy = answer.copy();
        JsonArray txs = new JsonArray();
        for (Object o : copy.getJsonObject("result").getJsonArray("txs")) {
            if (((JsonObject) o).getJsonObject("tx_result").getInteger("code") != 0) txs.add(o);
        }
        copy.getJsonObject("result").put("txs", txs);
        return copy;
    }

    @Test
    @DisplayName(
            "REST /txs/{hash} of a bank send on minievm: the tx_response fields and the exact event sequence of the real one")
    void restTxResponse() {
        DevnetChain.TxRef send = Fixtures.first(chain, Kind.BANK_SEND);
        JsonObject answer = devnet.rest("/cosmos/tx/v1beta1/txs/" + send.tx().hash);
        JsonObject real = Fixtures.object(MINIEVM + "bank-evm.json").getJsonObject("bankSendWithEvmLogTxResponse");
        // that recording's signer used SIGN_MODE_EIP_191 and its msg had another denom: names and types still match
        WireShape.unordered().check(real, answer.getJsonObject("tx_response"));
        assertEquals(
                eventKeys(real.getJsonArray("events")),
                eventKeys(answer.getJsonObject("tx_response").getJsonArray("events")));
    }

    private static List<String> eventKeys(JsonArray events) {
        List<String> out = new ArrayList<>();
        for (Object o : events) {
            JsonObject e = (JsonObject) o;
            List<String> keys = new ArrayList<>();
            for (Object a : e.getJsonArray("attributes")) keys.add(((JsonObject) a).getString("key"));
            out.add(e.getString("type") + keys);
        }
        return out;
    }

    @Test
    @DisplayName("the evm event's log attribute is minievm's JSON {address (EIP-55), topics, data}")
    void evmLogAttribute() {
        DevnetChain.TxRef send = Fixtures.first(chain, Kind.ERC20_TRANSFER);
        JsonObject real = new JsonObject(Fixtures.object(MINIEVM + "bank-evm.json")
                .getJsonObject("bankSendWithEvmLogTxResponse")
                .getJsonArray("events")
                .getJsonObject(1)
                .getJsonArray("attributes")
                .getJsonObject(0)
                .getString("value"));
        String log = null;
        for (Event e : send.tx().events) if (e.type().equals("evm")) log = e.value("log");
        WireShape.ordered().check(real, new JsonObject(log));
        assertTrue(new JsonObject(log).getString("address").matches("0x[0-9a-fA-F]{40}")
                && !new JsonObject(log)
                        .getString("address")
                        .equals(new JsonObject(log).getString("address").toLowerCase()));
    }

    @Test
    @DisplayName("eth_getBlockReceipts: Anvil's receipt and log fields (a successful and a failed tx)")
    void receipts() {
        DevnetChain.TxRef failed = Fixtures.first(chain, Kind.FAIL_REVERT);
        long h = failed.block().height;
        JsonArray answer = devnet.eth("eth_getBlockReceipts", hex(h)).getJsonArray("result");
        JsonArray real = Fixtures.object(ANVIL + "anvil_block9_receipts.json").getJsonArray("result");
        // Anvil adds blobGasPrice (blob txs only on geth) and blockTimestamp (geth 1.16+), minievm prints neither
        WireShape shape = WireShape.unordered().absent("blobGasPrice", "blockTimestamp", "logs[].blockTimestamp");
        shape.check(real.getJsonObject(0), withLogs(answer));
        JsonObject failedReceipt = answer.getJsonObject(failed.block().evmIndex(failed.tx()));
        assertEquals("0x0", failedReceipt.getString("status"));
        shape.check(real.getJsonObject(4), failedReceipt);
        WireShape.unordered()
                .absent("blobGasPrice", "blockTimestamp", "logs[].blockTimestamp")
                .check(
                        Fixtures.object(ANVIL + "anvil_block1_receipts_contract_creation.json")
                                .getJsonArray("result")
                                .getJsonObject(0),
                        devnet.eth("eth_getBlockReceipts", "0x1")
                                .getJsonArray("result")
                                .getJsonObject(0));
        for (String f : List.of("erc20-transfer.json", "erc721-transfer-from.json", "eth-transfer.json")) {
            JsonObject payload = (JsonObject) Fixtures.object(MINIEVM + f).getMap().values().stream()
                    .map(v -> new JsonObject((java.util.Map<String, Object>) v))
                    .toList()
                    .get(0);
            assertEquals(
                    new java.util.TreeSet<>(payload.getJsonObject("txReceipt").fieldNames()),
                    new java.util.TreeSet<>(answer.getJsonObject(0).fieldNames()),
                    f);
        }
    }

    private static JsonObject withLogs(JsonArray receipts) {
        for (Object o : receipts) if (!((JsonObject) o).getJsonArray("logs").isEmpty()) return (JsonObject) o;
        throw new AssertionError("no receipt with logs");
    }

    @Test
    @DisplayName("eth_getBlockByNumber with full txs: Anvil's block and EIP-1559 tx fields")
    void blockWithTxs() {
        DevnetChain.TxRef router = Fixtures.first(chain, Kind.ROUTER_CALL);
        JsonObject answer = devnet.eth("eth_getBlockByNumber", hex(router.block().height), true)
                .getJsonObject("result");
        JsonObject real = Fixtures.object(ANVIL + "anvil_block9_fulltx.json").getJsonObject("result");
        // post-Cancun/Prague header fields Anvil prints and minievm's header has not; Anvil's tx blockTimestamp (geth
        // 1.16+)
        // r and s are quantities (geth's hexutil.Big): a value whose top nibble is 0 prints 65 characters, not 66
        WireShape.unordered()
                .absent(
                        "withdrawalsRoot",
                        "blobGasUsed",
                        "excessBlobGas",
                        "parentBeaconBlockRoot",
                        "requestsHash",
                        "totalDifficulty",
                        "withdrawals",
                        "transactions[].blockTimestamp")
                .typeMayDiffer("transactions[].r", "transactions[].s")
                .check(real, answer);
        JsonObject hashes = devnet.eth("eth_getBlockByNumber", hex(router.block().height), false)
                .getJsonObject("result");
        assertEquals(
                router.tx().evm.hash(),
                hashes.getJsonArray("transactions").getString(router.block().evmIndex(router.tx())));
    }

    @Test
    @DisplayName("callTracer frames of the router call match Anvil's doEverything frame by frame, in field order")
    void callTracer() {
        DevnetChain.TxRef router = Fixtures.first(chain, Kind.ROUTER_CALL);
        JsonObject entry = entry(
                devnet.eth(
                        "debug_traceBlockByNumber",
                        hex(router.block().height),
                        new JsonObject().put("tracer", "callTracer")),
                router.tx().ethHash());
        assertEquals(List.of("txHash", "result"), new ArrayList<>(entry.fieldNames()));
        JsonObject frame = entry.getJsonObject("result");
        JsonObject real =
                Fixtures.object(ANVIL + "anvil_tx_doEverything_callTracer.json").getJsonObject("result");
        JsonObject realTop = real.copy();
        realTop.remove("calls");
        JsonObject top = frame.copy();
        top.remove("calls");
        WireShape.ordered().check(realTop, top);
        JsonArray realCalls = real.getJsonArray("calls");
        List<String> types = new ArrayList<>();
        for (Object o : frame.getJsonArray("calls")) {
            JsonObject c = (JsonObject) o;
            types.add(c.getString("type"));
            WireShape.ordered().check(like(realCalls, c), c);
        }
        assertEquals(
                List.of(
                        "CREATE",
                        "CALL",
                        "CALL",
                        "STATICCALL",
                        "CALL",
                        "DELEGATECALL",
                        "STATICCALL",
                        "CREATE2",
                        "CALL"),
                types);
        JsonObject same = devnet.eth(
                        "debug_traceTransaction", router.tx().evm.hash(), new JsonObject().put("tracer", "callTracer"))
                .getJsonObject("result");
        assertEquals(frame, same);
    }

    /** The recorded frame of the same kind: same type (CREATE2 as CREATE) and the same optional fields present. */
    private static JsonObject like(JsonArray real, JsonObject c) {
        String type = c.getString("type").equals("CREATE2") ? "CREATE" : c.getString("type");
        for (Object o : real) {
            JsonObject r = (JsonObject) o;
            if (r.getString("type").equals(type)
                    && r.containsKey("error") == c.containsKey("error")
                    && r.containsKey("output") == c.containsKey("output")) return r;
        }
        throw new AssertionError("no recorded frame like " + c.encode());
    }

    private static JsonObject entry(JsonObject response, String txHash) {
        for (Object o : response.getJsonArray("result"))
            if (((JsonObject) o).getString("txHash").equals(txHash)) return (JsonObject) o;
        throw new AssertionError("no trace entry for " + txHash);
    }

    @Test
    @DisplayName(
            "debug_traceBlockByNumber: a Cosmos-only tx is {txHash, error} exactly like minievm's; the envelope is jsonrpc, id, result")
    void cosmosTxTrace() {
        DevnetChain.TxRef send = Fixtures.first(chain, Kind.BANK_SEND);
        JsonObject response = devnet.eth(
                "debug_traceBlockByNumber", hex(send.block().height), new JsonObject().put("tracer", "callTracer"));
        JsonObject real = Fixtures.object(MINIEVM + "rollytics_minievm_debug_traceBlock_cosmos_tx_error.json");
        assertEquals(new ArrayList<>(real.fieldNames()), new ArrayList<>(response.fieldNames()));
        JsonObject entry = entry(response, send.tx().ethHash());
        WireShape.ordered().check(real.getJsonArray("result").getJsonObject(0), entry);
        assertTrue(entry.getString("error").endsWith("incorrect number of top-level calls"));
        assertEquals(send.block().txs.size(), response.getJsonArray("result").size());
    }
}
