package dev.weft.devnet;

import static dev.weft.devnet.DevnetHarness.hex;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.chain.Bech32;
import dev.weft.chain.CosmosTx;
import dev.weft.chain.Hex;
import dev.weft.devnet.gen.Abi;
import dev.weft.devnet.gen.Collection;
import dev.weft.devnet.gen.DevnetChain;
import dev.weft.devnet.gen.Token;
import dev.weft.devnet.gen.Tx;
import dev.weft.devnet.gen.TxPlan.Kind;
import dev.weft.testsupport.WeftExtension;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.math.BigInteger;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The three protocols of a history-mode devnet over real HTTP: lookups, pagination, errors, eth_call, searches. */
class DevnetApiTest {
    @RegisterExtension
    static final WeftExtension weft = new WeftExtension();

    private static DevnetHarness devnet;
    private static DevnetChain chain;

    @BeforeAll
    static void start() {
        devnet = DevnetHarness.start(weft, DevnetHarness.history(300));
        chain = devnet.replica();
    }

    private static long busiest() {
        long best = 2;
        for (long h = 2; h <= 60; h++) if (chain.txCount(h) > chain.txCount(best)) best = h;
        return best;
    }

    @Test
    @DisplayName(
            "REST /txs/block pages by limit and next_key or offset; the pages together are the block's raw txs, in order")
    void pagination() {
        long h = busiest();
        JsonArray raw = devnet.rpc("/block?height=" + h)
                .getJsonObject("result")
                .getJsonObject("block")
                .getJsonObject("data")
                .getJsonArray("txs");
        assertTrue(raw.size() > 14);
        List<JsonObject> viaKey = new ArrayList<>();
        String key = null;
        int pages = 0;
        do {
            JsonObject page = devnet.rest("/cosmos/tx/v1beta1/txs/block/" + h + "?pagination.limit=7"
                    + (key == null ? "" : "&pagination.key=" + enc(key)));
            assertEquals(
                    Integer.toString(raw.size()),
                    page.getJsonObject("pagination").getString("total"));
            page.getJsonArray("txs").forEach(t -> viaKey.add((JsonObject) t));
            key = page.getJsonObject("pagination").getString("next_key");
            pages++;
        } while (key != null);
        assertEquals((raw.size() + 6) / 7, pages);
        List<JsonObject> viaOffset = new ArrayList<>();
        for (int off = 0; off < raw.size(); off += 5) {
            devnet.rest("/cosmos/tx/v1beta1/txs/block/" + h + "?pagination.offset=" + off + "&pagination.limit=5")
                    .getJsonArray("txs")
                    .forEach(t -> viaOffset.add((JsonObject) t));
        }
        assertEquals(viaKey, viaOffset);
        JsonObject all = devnet.rest("/cosmos/tx/v1beta1/txs/block/" + h);
        assertNull(all.getJsonObject("pagination").getValue("next_key"));
        assertEquals(raw.size(), all.getJsonArray("txs").size());
        for (int i = 0; i < raw.size(); i++) sameTx(CosmosTx.decodeBase64(raw.getString(i)), viaKey.get(i));
        assertEquals(
                Base64.getEncoder()
                        .encodeToString(Hex.decode(devnet.rpc("/block?height=" + h)
                                .getJsonObject("result")
                                .getJsonObject("block_id")
                                .getString("hash"))),
                all.getJsonObject("block_id").getString("hash"));
        JsonObject tooFar = devnet.rest("/cosmos/tx/v1beta1/txs/block/" + h + "?pagination.offset=" + raw.size());
        assertEquals(3, tooFar.getInteger("code"));
        assertEquals(
                400,
                devnet.get(
                                devnet.restPort,
                                "/cosmos/tx/v1beta1/txs/block/" + h
                                        + "?pagination.offset=1&pagination.key=AAAAAAAAAAE=")
                        .statusCode());
        assertEquals(
                400,
                devnet.get(devnet.restPort, "/cosmos/tx/v1beta1/txs/block/301").statusCode());
    }

    private static String enc(String s) {
        return java.net.URLEncoder.encode(s, java.nio.charset.StandardCharsets.UTF_8);
    }

    /** The REST-decoded tx is the raw one: message types, fee, gas, signer key and sequence, memo, signature. */
    private static void sameTx(CosmosTx raw, JsonObject rest) {
        JsonObject body = rest.getJsonObject("body");
        List<String> types = new ArrayList<>();
        body.getJsonArray("messages").forEach(m -> types.add(((JsonObject) m).getString("@type")));
        assertEquals(raw.messages().stream().map(CosmosTx.Any::typeUrl).toList(), types);
        assertEquals(raw.memo(), body.getString("memo"));
        JsonObject auth = rest.getJsonObject("auth_info");
        JsonObject fee = auth.getJsonObject("fee");
        assertEquals(Long.toString(raw.fee().gasLimit()), fee.getString("gas_limit"));
        List<CosmosTx.Coin> coins = new ArrayList<>();
        fee.getJsonArray("amount")
                .forEach(c -> coins.add(
                        new CosmosTx.Coin(((JsonObject) c).getString("denom"), ((JsonObject) c).getString("amount"))));
        assertEquals(raw.fee().amount(), coins);
        JsonObject signer = auth.getJsonArray("signer_infos").getJsonObject(0);
        assertEquals(
                Base64.getEncoder().encodeToString(raw.signerInfos().get(0).pubKey()),
                signer.getJsonObject("public_key").getString("key"));
        assertEquals(Long.toString(raw.signerInfos().get(0).sequence()), signer.getString("sequence"));
        assertEquals(
                Base64.getEncoder().encodeToString(raw.signatures().get(0)),
                rest.getJsonArray("signatures").getString(0));
        JsonObject first = body.getJsonArray("messages").getJsonObject(0);
        String sender = first.containsKey("from_address") ? first.getString("from_address") : first.getString("sender");
        assertEquals(raw.signerInfos().get(0).address().bech32("init"), sender);
    }

    @Test
    @DisplayName(
            "a tx is found by its hash everywhere: /tx, REST /txs/{hash}, eth_getTransactionReceipt, debug_traceTransaction")
    void lookups() {
        long h = busiest();
        JsonObject block =
                devnet.rpc("/block?height=" + h).getJsonObject("result").getJsonObject("block");
        String rawTx = block.getJsonObject("data").getJsonArray("txs").getString(3);
        String hash = CosmosTx.hash(Base64.getDecoder().decode(rawTx));
        JsonObject viaRpc = devnet.rpc("/tx?hash=0x" + hash).getJsonObject("result");
        assertEquals(hash, viaRpc.getString("hash"));
        assertEquals(3, viaRpc.getInteger("index"));
        assertEquals(rawTx, viaRpc.getString("tx"));
        JsonObject results = devnet.rpc("/block_results?height=" + h).getJsonObject("result");
        assertEquals(results.getJsonArray("txs_results").getJsonObject(3), viaRpc.getJsonObject("tx_result"));
        JsonObject viaRest = devnet.rest("/cosmos/tx/v1beta1/txs/" + hash.toLowerCase());
        assertEquals(hash, viaRest.getJsonObject("tx_response").getString("txhash"));
        assertEquals(Long.toString(h), viaRest.getJsonObject("tx_response").getString("height"));
        assertEquals(
                viaRpc.getJsonObject("tx_result").getJsonArray("events"),
                viaRest.getJsonObject("tx_response").getJsonArray("events"));
        assertEquals(
                "/cosmos.tx.v1beta1.Tx",
                viaRest.getJsonObject("tx_response").getJsonObject("tx").getString("@type"));
        assertFalse(viaRest.getJsonObject("tx").containsKey("@type"));

        Tx evmTx = chain.block(h).evmTxs.get(0);
        JsonObject receipt =
                devnet.eth("eth_getTransactionReceipt", evmTx.evm.hash()).getJsonObject("result");
        JsonArray receipts = devnet.eth("eth_getBlockReceipts", hex(h)).getJsonArray("result");
        assertEquals(receipts.getJsonObject(0), receipt);
        JsonObject trace = devnet.eth(
                        "debug_traceTransaction", evmTx.evm.hash(), new JsonObject().put("tracer", "callTracer"))
                .getJsonObject("result");
        assertEquals(receipt.getString("gasUsed"), trace.getString("gasUsed"));
        JsonObject tx = devnet.eth("eth_getTransactionByHash", evmTx.evm.hash()).getJsonObject("result");
        assertEquals(receipt.getString("from"), tx.getString("from"));

        assertEquals(
                404,
                devnet.get(devnet.restPort, "/cosmos/tx/v1beta1/txs/" + "AB".repeat(32))
                        .statusCode());
        assertEquals(5, devnet.rest("/cosmos/tx/v1beta1/txs/" + "AB".repeat(32)).getInteger("code"));
        assertNull(
                devnet.eth("eth_getTransactionReceipt", "0x" + "ab".repeat(32)).getValue("result"));
        JsonObject missing = devnet.rpc("/tx?hash=0x" + "AB".repeat(32));
        assertEquals(-32603, missing.getJsonObject("error").getInteger("code"));
        assertEquals(
                "tx (" + "AB".repeat(32) + ") not found",
                missing.getJsonObject("error").getString("data"));
    }

    @Test
    @DisplayName(
            "CometBFT errors: a future height is -32603 with CometBFT's wording, HTTP 500; the JSON-RPC form answers like the URI form")
    void cometErrors() {
        HttpResponse<String> future = devnet.get(devnet.rpcPort, "/block?height=5000");
        assertEquals(500, future.statusCode());
        JsonObject err = new JsonObject(future.body()).getJsonObject("error");
        assertEquals(-32603, err.getInteger("code"));
        assertEquals("Internal error", err.getString("message"));
        assertEquals(
                "height 5000 must be less than or equal to the current blockchain height 300", err.getString("data"));
        JsonObject viaPost = new JsonObject(devnet.post(
                        devnet.rpcPort,
                        "{\"jsonrpc\":\"2.0\",\"id\":\"x7\",\"method\":\"block\",\"params\":{\"height\":\"12\"}}")
                .body());
        assertEquals("x7", viaPost.getString("id"));
        assertEquals(devnet.rpc("/block?height=12").getJsonObject("result"), viaPost.getJsonObject("result"));
        JsonObject unknown =
                new JsonObject(devnet.post(devnet.rpcPort, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"nope\"}")
                        .body());
        assertEquals(-32601, unknown.getJsonObject("error").getInteger("code"));
        assertEquals(404, devnet.get(devnet.rpcPort, "/nope").statusCode());
        JsonObject validators = devnet.rpc("/validators?height=7").getJsonObject("result");
        assertEquals("7", validators.getString("block_height"));
        assertEquals("1", validators.getString("total"));
    }

    @Test
    @DisplayName("tx_search: event conditions joined by AND, tx.height ranges, tx.hash, pages and order")
    void txSearch() {
        String q = "message.action='/cosmos.bank.v1beta1.MsgSend' AND tx.height>=10 AND tx.height<=40";
        JsonObject first = devnet.rpc("/tx_search?query=" + enc("\"" + q + "\"") + "&per_page=5&page=1")
                .getJsonObject("result");
        int total = Integer.parseInt(first.getString("total_count"));
        int expected = 0;
        for (long h = 10; h <= 40; h++) {
            for (Tx tx : chain.block(h).txs) {
                if (tx.code == 0 && tx.msgs.get(0).typeUrl().equals("/cosmos.bank.v1beta1.MsgSend")) expected++;
            }
        }
        assertEquals(expected, total);
        assertEquals(5, first.getJsonArray("txs").size());
        JsonArray all = new JsonArray();
        for (int page = 1; page <= (total + 99) / 100; page++) {
            JsonObject desc = devnet.rpc("/tx_search?query=" + enc("\"" + q + "\"")
                            + "&per_page=100&order_by=%22desc%22&page=" + page)
                    .getJsonObject("result");
            all.addAll(desc.getJsonArray("txs"));
        }
        assertEquals(total, all.size());
        assertTrue(Long.parseLong(all.getJsonObject(0).getString("height"))
                >= Long.parseLong(all.getJsonObject(total - 1).getString("height")));
        for (Object o : all) {
            long h = Long.parseLong(((JsonObject) o).getString("height"));
            assertTrue(h >= 10 && h <= 40);
        }
        String hash = all.getJsonObject(0).getString("hash");
        JsonObject byHash = devnet.rpc("/tx_search?query=" + enc("\"tx.hash='" + hash + "'\""))
                .getJsonObject("result");
        assertEquals("1", byHash.getString("total_count"));
        JsonObject badPage = devnet.rpc("/tx_search?query=" + enc("\"" + q + "\"") + "&page=99");
        assertTrue(badPage.getJsonObject("error").getString("data").startsWith("page should be within [1, "));
    }

    @Test
    @DisplayName("EVM JSON-RPC: unknown method error, batches in order, null for the future, invalid arguments")
    void jsonRpcBasics() {
        JsonObject unknown = devnet.eth("eth_foo");
        assertEquals(
                new JsonObject(
                        "{\"jsonrpc\":\"2.0\",\"id\":1,\"error\":{\"code\":-32601,\"message\":\"the method eth_foo does not exist/is not available\"}}"),
                unknown);
        JsonArray batch = devnet.ethBatch(new JsonArray()
                .add(new JsonObject().put("jsonrpc", "2.0").put("id", 7).put("method", "eth_blockNumber"))
                .add(new JsonObject().put("jsonrpc", "2.0").put("id", "b").put("method", "eth_chainId"))
                .add(new JsonObject().put("jsonrpc", "2.0").put("id", 9).put("method", "nope"))
                .add(new JsonObject()
                        .put("jsonrpc", "2.0")
                        .put("id", 10)
                        .put("method", "eth_getBlockByNumber")
                        .put("params", new JsonArray().add("0x99999").add(false))));
        assertEquals(4, batch.size());
        assertEquals(7, batch.getJsonObject(0).getInteger("id"));
        assertEquals("0x12c", batch.getJsonObject(0).getString("result"));
        assertEquals("b", batch.getJsonObject(1).getString("id"));
        assertEquals(-32601, batch.getJsonObject(2).getJsonObject("error").getInteger("code"));
        assertTrue(batch.getJsonObject(3).containsKey("result")
                && batch.getJsonObject(3).getValue("result") == null);
        assertNull(devnet.eth("eth_getBlockReceipts", "0x99999").getValue("result"));
        assertEquals(
                -32602,
                devnet.eth("eth_getBlockByNumber", "12", false)
                        .getJsonObject("error")
                        .getInteger("code"));
        JsonObject latest = devnet.eth("eth_getBlockByNumber", "latest", false).getJsonObject("result");
        assertEquals("0x12c", latest.getString("number"));
        assertEquals(
                devnet.eth("eth_getBlockByNumber", "0x12b", false)
                        .getJsonObject("result")
                        .getString("hash"),
                latest.getString("parentHash"));
        assertEquals(
                latest,
                devnet.eth("eth_getBlockByHash", latest.getString("hash"), false)
                        .getJsonObject("result"));
        assertEquals(
                "0x"
                        + devnet.rpc("/block?height=300")
                                .getJsonObject("result")
                                .getJsonObject("block_id")
                                .getString("hash")
                                .toLowerCase(),
                latest.getString("hash"));
    }

    @Test
    @DisplayName(
            "eth_call: ERC-20 and ERC-721 views with ABI-encoded results, reverts with data, calls to accounts without code")
    void ethCall() {
        Token gas = chain.genesis().feeToken();
        String token = gas.contract().hex();
        assertEquals("0x500702e28b0e7ca814cbe4378084d5725d23608f", token, "the registry's ERC-20 of the l2/ INIT");
        String holder = chain.genesis().actor(3).hex();
        assertEquals(
                "0x" + Abi.word(chain.balanceOf(gas, Hex.decode(holder), 120)),
                call(token, Abi.BALANCE_OF + Abi.word(holder), hex(120)));
        assertEquals("0x" + Abi.string("INIT"), call(token, Abi.SYMBOL, "latest"));
        assertEquals("0x" + Abi.string("Initia Native Token"), call(token, Abi.NAME, "latest"));
        assertEquals("0x" + Abi.word(6), call(token, Abi.DECIMALS, "latest"));
        assertEquals(
                BigInteger.TEN.pow(15).multiply(BigInteger.valueOf(256)),
                new BigInteger(call(token, Abi.TOTAL_SUPPLY, "latest").substring(2), 16));
        assertEquals("0x" + Abi.word(0), call(token, Abi.BALANCE_OF + Abi.word("0x" + "12".repeat(20)), "latest"));

        Collection kittens = chain.genesis().collections().get(0);
        assertEquals("0x" + Abi.string(kittens.name()), call(kittens.contract().hex(), Abi.NAME, "latest"));
        DevnetChain.TxRef mint = Fixtures.first(chain, Kind.NFT_MINT);
        Collection c = chain.genesis().collections().get(mint.tx().plan.collection);
        long id = mint.tx().plan.nftId;
        long h = mint.block().height;
        assertEquals("0x" + Abi.string(c.tokenUri(id)), call(c.contract().hex(), Abi.TOKEN_URI + Abi.word(id), hex(h)));
        assertEquals(
                "0x" + Abi.word(chain.genesis().actor(mint.tx().plan.nftTo).hex()),
                call(c.contract().hex(), Abi.OWNER_OF + Abi.word(id), hex(h)));
        JsonObject before = callResponse(c.contract().hex(), Abi.TOKEN_URI + Abi.word(id), hex(h - 1))
                .getJsonObject("error");
        assertEquals(3, before.getInteger("code"));
        assertEquals("execution reverted", before.getString("message"));
        assertEquals(Abi.NONEXISTENT_TOKEN + Abi.word(id), before.getString("data"));
        JsonObject notToken =
                callResponse(chain.genesis().router().hex(), Abi.NAME, "latest").getJsonObject("error");
        assertEquals(-32000, notToken.getInteger("code"));
        assertEquals("0x", call(holder, Abi.NAME, "latest"));
        assertEquals(
                "header not found",
                callResponse(token, Abi.NAME, "0x99999").getJsonObject("error").getString("message"));
        assertEquals(
                Abi.quantity(chain.balanceOf(gas, Hex.decode(holder), 300).multiply(BigInteger.TEN.pow(12))),
                devnet.eth("eth_getBalance", holder, "latest").getString("result"),
                "native balance: the fee token in 18 decimals");
    }

    private static String call(String to, String data, String block) {
        JsonObject r = callResponse(to, data, block);
        assertTrue(r.containsKey("result"), r.encode());
        return r.getString("result");
    }

    private static JsonObject callResponse(String to, String data, String block) {
        return devnet.eth("eth_call", new JsonObject().put("to", to).put("data", data), block);
    }

    @Test
    @DisplayName(
            "REST chain facts: latest block, node info, denom → ERC-20, the opchild validator behind a block's proposer, the account list")
    void restFacts() {
        JsonObject latest = devnet.rest("/cosmos/base/tendermint/v1beta1/blocks/latest");
        assertEquals(
                "300", latest.getJsonObject("block").getJsonObject("header").getString("height"));
        assertTrue(latest.getJsonObject("sdk_block")
                .getJsonObject("header")
                .getString("proposer_address")
                .startsWith("initvalcons1"));
        JsonObject info = devnet.rest("/cosmos/base/tendermint/v1beta1/node_info");
        assertEquals("weft-devnet-1", info.getJsonObject("default_node_info").getString("network"));
        assertTrue(
                info.getJsonObject("application_version").getString("version").startsWith("v1."));
        for (Token t : chain.genesis().tokens()) {
            JsonObject byDenom = devnet.rest("/minievm/evm/v1/contracts/by_denom?denom=" + enc(t.bankDenom()));
            assertEquals(t.contract().checksum(), byDenom.getString("address"));
        }
        assertEquals(
                404,
                devnet.get(devnet.restPort, "/minievm/evm/v1/contracts/by_denom?denom=nope")
                        .statusCode());
        assertEquals(
                400,
                devnet.get(devnet.restPort, "/minievm/evm/v1/contracts/by_denom")
                        .statusCode());
        String proposer = devnet.rpc("/block?height=9")
                .getJsonObject("result")
                .getJsonObject("block")
                .getJsonObject("header")
                .getString("proposer_address");
        String valoper = Bech32.encode("initvaloper", Hex.decode(proposer));
        JsonObject v = devnet.rest("/opinit/opchild/v1/validator/" + valoper).getJsonObject("validator");
        assertEquals(
                List.of("moniker", "operator_address", "consensus_pubkey", "cons_power"),
                new ArrayList<>(v.fieldNames()));
        assertEquals(valoper, v.getString("operator_address"));
        assertEquals("weft-devnet-sequencer", v.getString("moniker"));
        assertEquals(
                400,
                devnet.get(devnet.restPort, "/opinit/opchild/v1/validator/init1xyz")
                        .statusCode());
        // x/auth's account list, paged by next_key: every actor once, in account order
        List<String> listed = new ArrayList<>();
        String key = null;
        do {
            JsonObject page = devnet.rest("/cosmos/auth/v1beta1/accounts?pagination.limit=400"
                    + (key == null ? "" : "&pagination.key=" + enc(key)));
            for (Object o : page.getJsonArray("accounts")) {
                JsonObject a = (JsonObject) o;
                assertEquals(
                        List.of("@type", "address", "pub_key", "account_number", "sequence"),
                        new ArrayList<>(a.fieldNames()));
                assertEquals("/cosmos.auth.v1beta1.BaseAccount", a.getString("@type"));
                listed.add(a.getString("address"));
            }
            assertEquals(
                    Integer.toString(chain.genesis().actorCount()),
                    page.getJsonObject("pagination").getString("total"));
            key = page.getJsonObject("pagination").getString("next_key");
        } while (key != null);
        assertEquals(chain.genesis().actorCount(), listed.size());
        assertEquals(chain.genesis().actorCount(), new java.util.HashSet<>(listed).size());
        assertEquals(chain.genesis().actor(3).bech32(), listed.get(3));
    }

    @Test
    @DisplayName(
            "over HTTP: each receipt's logs are its tx's evm events from /block_results, in order, with block-wide logIndex")
    void receiptsMatchEvents() {
        long h = busiest();
        JsonArray results =
                devnet.rpc("/block_results?height=" + h).getJsonObject("result").getJsonArray("txs_results");
        JsonArray txs = devnet.rpc("/block?height=" + h)
                .getJsonObject("result")
                .getJsonObject("block")
                .getJsonObject("data")
                .getJsonArray("txs");
        JsonArray receipts = devnet.eth("eth_getBlockReceipts", hex(h)).getJsonArray("result");
        JsonArray traces = devnet.eth("debug_traceBlockByNumber", hex(h), new JsonObject().put("tracer", "callTracer"))
                .getJsonArray("result");
        assertEquals(txs.size(), traces.size());
        int evm = 0;
        long logIndex = 0;
        for (int i = 0; i < txs.size(); i++) {
            JsonObject trace = traces.getJsonObject(i);
            if (trace.containsKey("error")) {
                assertEquals(
                        "0x"
                                + CosmosTx.hash(Base64.getDecoder().decode(txs.getString(i)))
                                        .toLowerCase(),
                        trace.getString("txHash"));
                continue;
            }
            JsonObject receipt = receipts.getJsonObject(evm);
            assertEquals(hex(evm), receipt.getString("transactionIndex"));
            assertEquals(trace.getString("txHash"), receipt.getString("transactionHash"));
            assertEquals(results.getJsonObject(i).getInteger("code") == 0 ? "0x1" : "0x0", receipt.getString("status"));
            assertEquals(
                    Long.decode(results.getJsonObject(i).getString("gas_used")),
                    Long.decode(receipt.getString("gasUsed")));
            List<JsonObject> fromEvents = new ArrayList<>();
            for (Object e : results.getJsonObject(i).getJsonArray("events")) {
                JsonObject ev = (JsonObject) e;
                if (ev.getString("type").equals("evm"))
                    fromEvents.add(new JsonObject(
                            ev.getJsonArray("attributes").getJsonObject(0).getString("value")));
            }
            JsonArray logs = receipt.getJsonArray("logs");
            assertEquals(fromEvents.size(), logs.size());
            for (int k = 0; k < logs.size(); k++) {
                JsonObject log = logs.getJsonObject(k);
                assertEquals(fromEvents.get(k).getString("address").toLowerCase(), log.getString("address"));
                assertEquals(fromEvents.get(k).getJsonArray("topics"), log.getJsonArray("topics"));
                assertEquals(fromEvents.get(k).getString("data"), log.getString("data"));
                assertEquals(hex(logIndex++), log.getString("logIndex"));
            }
            evm++;
        }
        assertEquals(receipts.size(), evm);
    }

    @Test
    @DisplayName(
            "over HTTP: the rich-list invariant, Transfer logs of /block_results summed from block 1 = batched eth_call balanceOf at that height")
    void balancesFromLogs() {
        long upTo = 120;
        java.util.Map<String, BigInteger> sums = new java.util.TreeMap<>();
        for (long h = 1; h <= upTo; h++) {
            JsonArray results = devnet.rpc("/block_results?height=" + h)
                    .getJsonObject("result")
                    .getJsonArray("txs_results");
            if (results == null) continue;
            for (Object r : results) {
                for (Object e : ((JsonObject) r).getJsonArray("events")) {
                    JsonObject ev = (JsonObject) e;
                    if (!ev.getString("type").equals("evm")) continue;
                    JsonObject log = new JsonObject(
                            ev.getJsonArray("attributes").getJsonObject(0).getString("value"));
                    JsonArray topics = log.getJsonArray("topics");
                    if (topics.size() != 3 || !topics.getString(0).equals(Abi.TRANSFER_TOPIC)) continue;
                    BigInteger amount = new BigInteger(log.getString("data").substring(2), 16);
                    String token = log.getString("address").toLowerCase();
                    sums.merge(token + " 0x" + topics.getString(1).substring(26), amount.negate(), BigInteger::add);
                    sums.merge(token + " 0x" + topics.getString(2).substring(26), amount, BigInteger::add);
                }
            }
        }
        sums.keySet().removeIf(k -> k.endsWith(Abi.ZERO_ADDRESS));
        JsonArray batch = new JsonArray();
        List<String> keys = new ArrayList<>(sums.keySet());
        for (int i = 0; i < keys.size(); i++) {
            String[] tokenAccount = keys.get(i).split(" ");
            batch.add(new JsonObject()
                    .put("jsonrpc", "2.0")
                    .put("id", i)
                    .put("method", "eth_call")
                    .put(
                            "params",
                            new JsonArray()
                                    .add(new JsonObject()
                                            .put("to", tokenAccount[0])
                                            .put("data", Abi.BALANCE_OF + Abi.word(tokenAccount[1])))
                                    .add(hex(upTo))));
        }
        assertTrue(keys.size() > 500, keys.size() + " (token, account) pairs");
        JsonArray answers = devnet.ethBatch(batch);
        for (int i = 0; i < keys.size(); i++) {
            assertEquals(i, answers.getJsonObject(i).getInteger("id"));
            assertEquals(
                    sums.get(keys.get(i)),
                    new BigInteger(answers.getJsonObject(i).getString("result").substring(2), 16),
                    keys.get(i));
        }
    }
}
