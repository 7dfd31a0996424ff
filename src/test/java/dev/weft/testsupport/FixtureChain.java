package dev.weft.testsupport;

import dev.weft.chain.AccountAddress;
import dev.weft.chain.Bech32;
import dev.weft.chain.CosmosTx;
import dev.weft.chain.Hashes;
import dev.weft.chain.Hex;
import dev.weft.chain.model.Rfc3339;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A chain served from the recorded fixtures, for ingestion tests before (and besides) the devnet: CometBFT RPC under
 * {@code /rpc}, Cosmos REST under {@code /rest}, EVM JSON-RPC at {@code /evm}. Every block is derived
 * deterministically from real recorded answers: the CometBFT 0.38 {@code /block} and {@code /status} envelopes
 * (tendermint-rs), the real initia.js TxRaw (MsgSend + minievm MsgCall, ethsecp256k1 signer) re-encoded with per-tx
 * memo, signature, fee and message mix, the real minievm tx_response events (bank transfer with EVM Transfer logs)
 * re-addressed to the tx's signer, and the real Anvil ERC-20 receipt. Faults can be switched on: 500s, cut
 * connections, delays, and REST answers that lack txs for the first calls of each height.
 */
public final class FixtureChain {
    /** The recorded node responses and registry data (a verbatim copy of the project's shared fixtures, see its PROVENANCE.md). */
    public static final Path FIXTURES = Path.of("src/test/resources/fixtures");

    public static final String PROPOSER = "2DD9F44FD9067555C322243C3C913BA7B51D2BE0";
    public static final String MONIKER = "fixture-sequencer";
    public static final long GENESIS_NS = Rfc3339.parseNanos("2025-08-20T10:20:52Z");
    /** Signer A: the initia.js fixture key; signer B: the key of the real minievm bank tx. */
    public static final String KEY_A = "A4MYU1tUEF1Keq5gwI/EX5aHGBtP38YlvRp1P6c5f+11";

    public static final String KEY_B = "Axdt0OtFq4TF/TA4EnlF4J0Lv6E+9jFccR2/ULQVXP2a";
    public static final String ETH_KEY_TYPE = "/initia.crypto.v1beta1.ethsecp256k1.PubKey";
    public static final String MSG_SEND = "cosmos.bank.v1beta1.MsgSend";
    public static final String MSG_CALL = "minievm.evm.v1.MsgCall";

    private final Vertx vertx;
    private final String chainId;
    private final String prefix;
    private HttpServer server;
    private volatile long head;
    private final JsonObject blockTemplate;
    private final JsonObject statusTemplate;
    private final JsonObject bankTx;
    private final JsonObject jsDecoded;
    private final CosmosTx jsTx;
    private final JsonObject receiptTemplate;
    private final Map<Long, Integer> restCalls = new ConcurrentHashMap<>();
    private final Random random = new Random(42);
    public final AtomicLong requests = new AtomicLong();
    public final AtomicLong faults = new AtomicLong();

    // faults
    public volatile double failRate;
    public volatile double cutRate;
    public volatile long delayMs;
    /** The first N REST calls of each height lack the second half of the block's txs. */
    public volatile int shortRestCalls;

    public volatile boolean shuffleRest;
    /** Answer REST validator lookups with 404 (the resolver must then use the validator list). */
    public volatile boolean validatorNotFound;
    /** Whether the OPinit opchild module is served; without it its routes answer 501 as a plain Cosmos SDK 0.50 node. */
    public volatile boolean opchild = true;
    /** Whether x/staking's validator list is served (the validator under {@code description.moniker}). */
    public volatile boolean staking;
    /** The lowest height a pruned node still has ({@code sync_info.earliest_block_height}). */
    public volatile long earliest = 1;
    /**
     * A height whose {@code /block} is answered only once its REST txs were asked (at most 10 s later): what a client
     * asking both at once never waits for. {@link #heldOrder} records, for that height, {@code "rest"} when its REST txs
     * were asked and {@code "block"} when its block was answered.
     */
    public volatile long holdBlockUntilRest = -1;

    public final List<String> heldOrder = new java.util.concurrent.CopyOnWriteArrayList<>();
    private Runnable heldBlock;

    private FixtureChain(Vertx vertx, String chainId, String prefix, long head) {
        this.vertx = vertx;
        this.chainId = chainId;
        this.prefix = prefix;
        this.head = head;
        this.blockTemplate = read("cometbft-v0.38-kvstore-tendermint-rs/block_at_height_10.json")
                .getJsonObject("result");
        this.statusTemplate =
                read("cometbft-v0.38-kvstore-tendermint-rs/status.json").getJsonObject("result");
        this.bankTx =
                read("initia-minievm-tx-decoder-fixtures/bank-evm.json").getJsonObject("bankSendWithEvmLogTxResponse");
        JsonObject js = read("initia-js-offline/signed_tx_msgsend_msgcall.json");
        this.jsDecoded = js.getJsonObject("decoded_amino_json");
        this.jsTx = CosmosTx.decodeBase64(js.getString("tx_base64"));
        this.receiptTemplate = new JsonObject(readText("evm-anvil/anvil_block9_receipts.json"))
                .getJsonArray("result")
                .getJsonObject(2);
    }

    /** The chain's data without a server (for assembling blocks directly). */
    public static FixtureChain offline(String chainId) {
        return new FixtureChain(null, chainId, "init", Long.MAX_VALUE);
    }

    public static FixtureChain start(Vertx vertx, String chainId, long head) {
        FixtureChain c = new FixtureChain(vertx, chainId, "init", head);
        c.server = TestNodes.await(
                vertx.createHttpServer().requestHandler(c::handle).listen(0, "127.0.0.1"));
        return c;
    }

    public static JsonObject read(String relative) {
        return new JsonObject(readText(relative));
    }

    public static String readText(String relative) {
        try {
            return Files.readString(FIXTURES.resolve(relative));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public int port() {
        return server.actualPort();
    }

    public String base() {
        return "http://127.0.0.1:" + port();
    }

    /** Points a test configuration's chain URLs at this server. */
    public TestConfig configure(TestConfig c) {
        return c.set("chain.chain_id", chainId)
                .set("chain.rpc", new JsonArray().add(base() + "/rpc"))
                .set("chain.rest", new JsonArray().add(base() + "/rest"))
                .set("chain.json_rpc", new JsonArray().add(base() + "/evm"));
    }

    public long head() {
        return head;
    }

    public void head(long h) {
        head = h;
    }

    public void close() {
        TestNodes.await(server.close());
    }

    // ---- the deterministic chain ----

    /** Txs of a height: 0, 1, 2 or 3 (every fourth block is empty). */
    public static int txCount(long h) {
        return (int) (h % 4);
    }

    public static long txsUpTo(long h) {
        long n = 0;
        for (long i = 1; i <= h; i++) n += txCount(i);
        return n;
    }

    public static long timeNs(long h) {
        return GENESIS_NS + h * 1_500_000_000L + (h % 7) * 1_000L;
    }

    public static String blockHash(long h) {
        return Hex.upper(Hashes.sha256(("block" + h).getBytes(StandardCharsets.UTF_8)));
    }

    static long k(long h, int i) {
        return h * 10 + i;
    }

    public static boolean signerB(long h, int i) {
        return k(h, i) % 3 == 0;
    }

    public static String signerKey(long h, int i) {
        return signerB(h, i) ? KEY_B : KEY_A;
    }

    public static AccountAddress signer(long h, int i) {
        return AccountAddress.fromEthSecp256k1(Base64.getDecoder().decode(signerKey(h, i)));
    }

    /** Message types of a tx (without slash): send, call, send+call, send. */
    public static List<String> msgTypes(long h, int i) {
        return switch ((int) (k(h, i) % 4)) {
            case 1 -> List.of(MSG_CALL);
            case 2 -> List.of(MSG_SEND, MSG_CALL);
            default -> List.of(MSG_SEND);
        };
    }

    public static int code(long h, int i) {
        return k(h, i) % 7 == 6 ? 5 : 0;
    }

    /** Whether the tx made an EVM call that succeeded, so it has a receipt. */
    public static boolean hasReceipt(long h, int i) {
        return msgTypes(h, i).contains(MSG_CALL) && code(h, i) == 0;
    }

    private static byte[] signature(long k) {
        byte[] a = Hashes.sha256(("sig" + k).getBytes(StandardCharsets.UTF_8));
        byte[] b = Hashes.sha256(("sig2" + k).getBytes(StandardCharsets.UTF_8));
        byte[] s = new byte[64];
        System.arraycopy(a, 0, s, 0, 32);
        System.arraycopy(b, 0, s, 32, 32);
        return s;
    }

    public byte[] rawTx(long h, int i) {
        long k = k(h, i);
        List<CosmosTx.Any> msgs = new ArrayList<>();
        for (String t : msgTypes(h, i)) msgs.add(jsTx.messages().get(t.equals(MSG_SEND) ? 0 : 1));
        CosmosTx tx = new CosmosTx(
                msgs,
                "fixture tx " + k,
                0,
                List.of(new CosmosTx.SignerInfo(
                        ETH_KEY_TYPE, Base64.getDecoder().decode(signerKey(h, i)), k)),
                new CosmosTx.Fee(List.of(new CosmosTx.Coin("uinit", Long.toString(1000 + k))), 200_000, "", ""),
                List.of(signature(k)));
        return tx.encode();
    }

    public String txHash(long h, int i) {
        return CosmosTx.hash(rawTx(h, i));
    }

    /** The tx as the REST API decodes it (GetBlockWithTxs item: no {@code @type} wrapper), its messages sent by its signer. */
    public JsonObject restTx(long h, int i) {
        long k = k(h, i);
        JsonArray messages = new JsonArray();
        String sender = jsDecoded
                .getJsonObject("body")
                .getJsonArray("messages")
                .getJsonObject(0)
                .getString("from_address");
        for (String t : msgTypes(h, i)) {
            String m = jsDecoded
                    .getJsonObject("body")
                    .getJsonArray("messages")
                    .getJsonObject(t.equals(MSG_SEND) ? 0 : 1)
                    .encode();
            messages.add(new JsonObject(m.replace(sender, signer(h, i).bech32(prefix))));
        }
        return new JsonObject()
                .put(
                        "body",
                        new JsonObject()
                                .put("messages", messages)
                                .put("memo", "fixture tx " + k)
                                .put("timeout_height", "0")
                                .put("extension_options", new JsonArray())
                                .put("non_critical_extension_options", new JsonArray()))
                .put(
                        "auth_info",
                        new JsonObject()
                                .put(
                                        "signer_infos",
                                        new JsonArray()
                                                .add(new JsonObject()
                                                        .put(
                                                                "public_key",
                                                                new JsonObject()
                                                                        .put("@type", ETH_KEY_TYPE)
                                                                        .put("key", signerKey(h, i)))
                                                        .put(
                                                                "mode_info",
                                                                new JsonObject()
                                                                        .put(
                                                                                "single",
                                                                                new JsonObject()
                                                                                        .put(
                                                                                                "mode",
                                                                                                "SIGN_MODE_DIRECT")))
                                                        .put("sequence", Long.toString(k))))
                                .put(
                                        "fee",
                                        new JsonObject()
                                                .put(
                                                        "amount",
                                                        new JsonArray()
                                                                .add(new JsonObject()
                                                                        .put("denom", "uinit")
                                                                        .put("amount", Long.toString(1000 + k))))
                                                .put("gas_limit", "200000")
                                                .put("payer", "")
                                                .put("granter", ""))
                                .putNull("tip"))
                .put("signatures", new JsonArray().add(Base64.getEncoder().encodeToString(signature(k))));
    }

    /** The tx's ExecTxResult as {@code /block_results} shows it. */
    public JsonObject txResult(long h, int i) {
        long k = k(h, i);
        AccountAddress s = signer(h, i);
        String events = bankTx.getJsonArray("events")
                .encode()
                .replace("init1kw2unuhgfa6mz6r0ehrzlr9k9ftjk7pql8u5fm", s.bech32(prefix))
                .replace("b395c9f2e84f75b1686fcdc62f8cb62a572b7820", Hex.lower(s.bytes()));
        JsonArray ev = new JsonArray(events);
        if (k % 5 == 0) {
            ev.add(new JsonObject()
                    .put("type", "fixture")
                    .put(
                            "attributes",
                            new JsonArray()
                                    .add(new JsonObject()
                                            .put("key", "note")
                                            .put("value", "nul\u0000byte")
                                            .put("index", false))));
        }
        int code = code(h, i);
        return new JsonObject()
                .put("code", code)
                .put(
                        "data",
                        code == 0 ? Base64.getEncoder().encodeToString(Hex.decode(bankTx.getString("data"))) : null)
                .put("log", code == 0 ? "" : "insufficient funds")
                .put("info", "")
                .put("gas_wanted", "200000")
                .put("gas_used", Long.toString(100_000 + k))
                .put("events", ev)
                .put("codespace", code == 0 ? "" : "sdk");
    }

    public JsonObject receipt(long h, int i) {
        long k = k(h, i);
        int evmIndex = 0;
        for (int j = 0; j < i; j++) if (hasReceipt(h, j)) evmIndex++;
        String txHash = "0x" + Hex.lower(Hashes.sha256(("evm" + k).getBytes(StandardCharsets.UTF_8)));
        String bh = "0x" + blockHash(h).toLowerCase();
        String from = Hex.prefixed(signer(h, i).bytes());
        JsonObject r = receiptTemplate.copy();
        r.put("blockNumber", "0x" + Long.toHexString(h))
                .put("blockHash", bh)
                .put("transactionHash", txHash)
                .put("transactionIndex", "0x" + Integer.toHexString(evmIndex))
                .put("from", from);
        JsonObject log = r.getJsonArray("logs").getJsonObject(0);
        log.put("blockNumber", "0x" + Long.toHexString(h))
                .put("blockHash", bh)
                .put("transactionHash", txHash)
                .put("transactionIndex", "0x" + Integer.toHexString(evmIndex))
                .put("logIndex", "0x" + Integer.toHexString(evmIndex));
        log.getJsonArray("topics").set(1, "0x000000000000000000000000" + from.substring(2));
        return r;
    }

    public JsonObject block(long h) {
        JsonObject r = blockTemplate.copy();
        JsonObject header = r.getJsonObject("block").getJsonObject("header");
        header.put("height", Long.toString(h))
                .put("chain_id", chainId)
                .put("time", Rfc3339.nanos(timeNs(h)))
                .put("proposer_address", PROPOSER);
        JsonArray txs = new JsonArray();
        for (int i = 0; i < txCount(h); i++) txs.add(Base64.getEncoder().encodeToString(rawTx(h, i)));
        r.getJsonObject("block").getJsonObject("data").put("txs", txs);
        r.getJsonObject("block_id").put("hash", blockHash(h));
        return r;
    }

    public JsonObject blockResults(long h) {
        JsonObject r = new JsonObject().put("height", Long.toString(h));
        if (txCount(h) == 0) {
            r.putNull("txs_results");
        } else {
            JsonArray results = new JsonArray();
            for (int i = 0; i < txCount(h); i++) results.add(txResult(h, i));
            r.put("txs_results", results);
        }
        return r.putNull("finalize_block_events")
                .putNull("validator_updates")
                .putNull("consensus_param_updates")
                .putNull("app_hash");
    }

    public String valoper() {
        return Bech32.encode(prefix + "valoper", Hex.decode(PROPOSER));
    }

    public String operatorAddress() {
        return Bech32.encode(
                prefix + "valoper",
                java.util.Arrays.copyOf(Hashes.sha256("operator".getBytes(StandardCharsets.UTF_8)), 20));
    }

    // ---- HTTP ----

    private void handle(HttpServerRequest req) {
        requests.incrementAndGet();
        req.body().onSuccess(body -> {
            if (delayMs > 0) vertx.setTimer(delayMs, t -> route(req, body));
            else route(req, body);
        });
    }

    private void route(HttpServerRequest req, io.vertx.core.buffer.Buffer body) {
        String path = req.path();
        boolean faulty = !path.endsWith("/status");
        synchronized (random) {
            if (faulty && cutRate > 0 && random.nextDouble() < cutRate) {
                faults.incrementAndGet();
                req.connection().close();
                return;
            }
            if (faulty && failRate > 0 && random.nextDouble() < failRate) {
                faults.incrementAndGet();
                req.response().setStatusCode(500).end("fault injected");
                return;
            }
        }
        if (path.equals("/evm")) {
            evm(req, new JsonObject(body));
            return;
        }
        if (path.startsWith("/rpc/")) rpc(req, path.substring(4));
        else if (path.startsWith("/rest/")) rest(req, path.substring(5));
        else req.response().setStatusCode(404).end("not found");
    }

    private void rpc(HttpServerRequest req, String method) {
        if (method.equals("/status")) {
            JsonObject s = statusTemplate.copy();
            s.getJsonObject("node_info").put("network", chainId);
            s.getJsonObject("sync_info")
                    .put("latest_block_height", Long.toString(head))
                    .put("latest_block_hash", blockHash(head))
                    .put("latest_block_time", Rfc3339.nanos(timeNs(head)))
                    .put("earliest_block_height", Long.toString(earliest))
                    .put("earliest_block_hash", blockHash(earliest))
                    .put("earliest_block_time", Rfc3339.nanos(timeNs(earliest)));
            rpcResult(req, s);
            return;
        }
        if (method.equals("/blockchain")) {
            blockchain(req);
            return;
        }
        long h = Long.parseLong(req.getParam("height"));
        if (h < earliest) { // what a pruned CometBFT node answers
            req.response()
                    .setStatusCode(500)
                    .end(new JsonObject()
                            .put("jsonrpc", "2.0")
                            .put("id", -1)
                            .put(
                                    "error",
                                    new JsonObject()
                                            .put("code", -32603)
                                            .put("message", "Internal error")
                                            .put(
                                                    "data",
                                                    "height " + h + " is not available, lowest height is " + earliest))
                            .encode());
            return;
        }
        if (h > head || h < 1) {
            req.response()
                    .setStatusCode(500)
                    .end(new JsonObject()
                            .put("jsonrpc", "2.0")
                            .put("id", -1)
                            .put(
                                    "error",
                                    new JsonObject()
                                            .put("code", -32603)
                                            .put("message", "Internal error")
                                            .put(
                                                    "data",
                                                    "height " + h
                                                            + " must be less than or equal to the current blockchain height "
                                                            + head))
                            .encode());
            return;
        }
        if (method.equals("/block") && h == holdBlockUntilRest && !heldOrder.contains("rest")) {
            Runnable answer = () -> {
                if (heldOrder.contains("block")) return;
                heldOrder.add("block");
                rpcResult(req, block(h));
            };
            synchronized (this) {
                heldBlock = answer;
            }
            vertx.setTimer(10_000, t -> answer.run());
            return;
        }
        if (method.equals("/block") && h == holdBlockUntilRest && !heldOrder.contains("block")) heldOrder.add("block");
        switch (method) {
            case "/block" -> rpcResult(req, block(h));
            case "/block_results" -> rpcResult(req, blockResults(h));
            default -> req.response().setStatusCode(404).end("unknown method");
        }
    }

    /** {@code /blockchain?minHeight=&maxHeight=}: the block metas of the range (within what the node has), newest first. */
    private void blockchain(HttpServerRequest req) {
        long min = Math.max(earliest, Long.parseLong(req.getParam("minHeight")));
        long max = Math.min(head, Long.parseLong(req.getParam("maxHeight")));
        JsonArray metas = new JsonArray();
        for (long h = max; h >= min && metas.size() < 20; h--) {
            JsonObject b = block(h);
            metas.add(new JsonObject()
                    .put("block_id", b.getJsonObject("block_id"))
                    .put("block_size", "1")
                    .put("header", b.getJsonObject("block").getJsonObject("header"))
                    .put("num_txs", Integer.toString(txCount(h))));
        }
        rpcResult(req, new JsonObject().put("last_height", Long.toString(head)).put("block_metas", metas));
    }

    private static void rpcResult(HttpServerRequest req, JsonObject result) {
        req.response()
                .putHeader("content-type", "application/json")
                .end(new JsonObject()
                        .put("jsonrpc", "2.0")
                        .put("id", -1)
                        .put("result", result)
                        .encode());
    }

    private void rest(HttpServerRequest req, String path) {
        if (path.startsWith("/cosmos/tx/v1beta1/txs/block/")) {
            long h = Long.parseLong(path.substring("/cosmos/tx/v1beta1/txs/block/".length()));
            if (h == holdBlockUntilRest && !heldOrder.contains("rest")) {
                heldOrder.add("rest");
                Runnable held;
                synchronized (this) {
                    held = heldBlock;
                }
                if (held != null) held.run();
            }
            if (h > head) {
                req.response()
                        .setStatusCode(400)
                        .end(new JsonObject()
                                .put("code", 3)
                                .put("message", "requested block height is bigger then the chain length")
                                .put("details", new JsonArray())
                                .encode());
                return;
            }
            int offset = Integer.parseInt(
                    req.params().get("pagination.offset") == null
                            ? "0"
                            : req.params().get("pagination.offset"));
            int limit = Integer.parseInt(
                    req.params().get("pagination.limit") == null
                            ? "100"
                            : req.params().get("pagination.limit"));
            int n = txCount(h);
            int calls = restCalls.merge(h, 1, Integer::sum);
            int visible = calls <= shortRestCalls ? n / 2 : n;
            List<JsonObject> all = new ArrayList<>();
            for (int i = 0; i < visible; i++) all.add(restTx(h, i));
            if (shuffleRest) Collections.reverse(all);
            if (offset >= visible && visible != 0) { // what the SDK answers past the end
                req.response()
                        .setStatusCode(400)
                        .end(new JsonObject()
                                .put("code", 3)
                                .put(
                                        "message",
                                        "out of range: cannot paginate " + visible + " txs with offset " + offset
                                                + " and limit " + limit + ": invalid request")
                                .put("details", new JsonArray())
                                .encode());
                return;
            }
            JsonArray txs = new JsonArray();
            for (int i = offset; i < Math.min(visible, offset + limit); i++) txs.add(all.get(i));
            req.response()
                    .putHeader("content-type", "application/json")
                    .end(new JsonObject()
                            .put("txs", txs)
                            .put(
                                    "block_id",
                                    new JsonObject()
                                            .put("hash", Base64.getEncoder().encodeToString(Hex.decode(blockHash(h)))))
                            .put(
                                    "pagination",
                                    new JsonObject().putNull("next_key").put("total", Integer.toString(visible)))
                            .encode());
        } else if (path.startsWith("/opinit/") && !opchild) {
            notImplemented(req);
        } else if (path.startsWith("/opinit/opchild/v1/validator/")) {
            String v = path.substring("/opinit/opchild/v1/validator/".length());
            if (validatorNotFound || !v.equals(valoper())) {
                req.response()
                        .setStatusCode(404)
                        .end(new JsonObject()
                                .put("code", 5)
                                .put("message", "validator not found")
                                .encode());
                return;
            }
            req.response().end(new JsonObject().put("validator", validator()).encode());
        } else if (path.equals("/opinit/opchild/v1/validators")) {
            req.response()
                    .end(new JsonObject()
                            .put("validators", new JsonArray().add(validator()))
                            .put(
                                    "pagination",
                                    new JsonObject().putNull("next_key").put("total", "1"))
                            .encode());
        } else if (path.equals("/cosmos/staking/v1beta1/validators") && staking) {
            JsonObject v = validator();
            JsonObject sv = new JsonObject()
                    .put("operator_address", v.getString("operator_address"))
                    .put("consensus_pubkey", v.getJsonObject("consensus_pubkey"))
                    .put("jailed", false)
                    .put("status", "BOND_STATUS_BONDED")
                    .put("tokens", "1000000")
                    .put("delegator_shares", "1000000.000000000000000000")
                    .put(
                            "description",
                            new JsonObject()
                                    .put("moniker", MONIKER)
                                    .put("identity", "")
                                    .put("website", "")
                                    .put("security_contact", "")
                                    .put("details", ""));
            req.response()
                    .end(new JsonObject()
                            .put("validators", new JsonArray().add(sv))
                            .put(
                                    "pagination",
                                    new JsonObject().putNull("next_key").put("total", "1"))
                            .encode());
        } else if (path.equals("/cosmos/base/tendermint/v1beta1/blocks/latest")) {
            req.response()
                    .end(new JsonObject()
                            .put(
                                    "block",
                                    new JsonObject().put("header", new JsonObject().put("height", Long.toString(head))))
                            .encode());
        } else {
            notImplemented(req);
        }
    }

    /** What a Cosmos SDK 0.50 node (grpc-gateway) answers for a route no module registered. */
    private static void notImplemented(HttpServerRequest req) {
        req.response()
                .setStatusCode(501)
                .putHeader("content-type", "application/json")
                .end(new JsonObject()
                        .put("code", 12)
                        .put("message", "Not Implemented")
                        .put("details", new JsonArray())
                        .encode());
    }

    private JsonObject validator() {
        return new JsonObject()
                .put("moniker", MONIKER)
                .put("operator_address", operatorAddress())
                .put(
                        "consensus_pubkey",
                        new JsonObject()
                                .put("@type", "/cosmos.crypto.ed25519.PubKey")
                                .put(
                                        "key",
                                        statusTemplate
                                                .getJsonObject("validator_info")
                                                .getJsonObject("pub_key")
                                                .getString("value")))
                .put("cons_power", "1");
    }

    private void evm(HttpServerRequest req, JsonObject call) {
        Object result;
        switch (call.getString("method")) {
            case "eth_getBlockReceipts" -> {
                long h = Long.parseLong(call.getJsonArray("params").getString(0).substring(2), 16);
                if (h > head) {
                    result = null;
                } else {
                    JsonArray out = new JsonArray();
                    for (int i = 0; i < txCount(h); i++) if (hasReceipt(h, i)) out.add(receipt(h, i));
                    result = out;
                }
            }
            case "eth_blockNumber" -> result = "0x" + Long.toHexString(head);
            default -> {
                req.response()
                        .end(new JsonObject()
                                .put("jsonrpc", "2.0")
                                .put("id", call.getValue("id"))
                                .put(
                                        "error",
                                        new JsonObject()
                                                .put("code", -32601)
                                                .put("message", "the method does not exist"))
                                .encode());
                return;
            }
        }
        req.response()
                .putHeader("content-type", "application/json")
                .end(new JsonObject()
                        .put("jsonrpc", "2.0")
                        .put("id", call.getValue("id"))
                        .put("result", result)
                        .encode());
    }
}
