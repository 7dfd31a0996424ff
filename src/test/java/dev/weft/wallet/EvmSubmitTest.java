package dev.weft.wallet;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.weft.devnet.world.World;
import dev.weft.node.WeftNode;
import dev.weft.testsupport.Await;
import dev.weft.testsupport.EthWallet;
import dev.weft.testsupport.LocalHttp;
import dev.weft.testsupport.TestNodes;
import dev.weft.testsupport.WeftExtension;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.math.BigInteger;
import java.net.http.HttpResponse;
import java.util.Base64;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code POST /v2/tx/submit} of EVM txs to the devnet's minievm rollup (weft-devnet-1, a Cosmos chain with an EVM):
 * a raw tx ethers signed, in 0x hex or base64, goes to the chain's {@code eth_sendRawTransaction}; the answer is its
 * Keccak hash, the tx executes, the indexer stores it under that hash and {@code /v2/tx/status} follows it by that
 * hash to its end; txs the node refuses are 400s with its message.
 */
class EvmSubmitTest {
    @RegisterExtension
    static final WeftExtension weft = new WeftExtension();

    static final String CHAIN = "weft-devnet-1";
    static final BigInteger GAS_PRICE = BigInteger.valueOf(15_000_000_000L);
    static final LocalHttp http = new LocalHttp();
    static WeftNode node;
    static int api;
    static int evm;
    static long chainId;

    @BeforeAll
    static void start() {
        node = weft.start(weft.config()
                .roles("devnet", "route", "ingest", "api", "track")
                .set("devnet.mode", "live")
                .set("devnet.history_blocks", 10)
                .set("devnet.block_interval", "100ms")
                .set("devnet.txs_per_block", 2)
                .set("ingest.poll_interval", "50ms")
                .set("track.poll_interval", "100ms")
                .set("route.registries", new JsonArray().add("conf/registry/devnet.json")));
        api = TestNodes.httpPort(node);
        evm = dev.weft.devnet.DevnetEndpoints.of(node.context().info())
                .generated()
                .jsonRpcPort();
        chainId = Long.decode(eth("eth_chainId").getString("result"));
    }

    static JsonObject eth(String method, Object... params) {
        JsonObject req = new JsonObject()
                .put("jsonrpc", "2.0")
                .put("id", 1)
                .put("method", method)
                .put("params", new JsonArray(java.util.List.of(params)));
        return new JsonObject(http.post(evm, "/", req.encode()).body());
    }

    static HttpResponse<String> submit(String tx) {
        return http.post(
                api,
                "/v2/tx/submit",
                new JsonObject().put("tx", tx).put("chain_id", CHAIN).encode());
    }

    static void refused(String tx, String nodeMessage) {
        var r = submit(tx);
        assertEquals(400, r.statusCode(), r.body());
        assertEquals(
                new JsonObject()
                        .put("code", 3)
                        .put(
                                "message",
                                "tx rejected by " + CHAIN + ": eth_sendRawTransaction: JSON-RPC error -32000 "
                                        + nodeMessage)
                        .put("details", new JsonArray()),
                new JsonObject(r.body()));
    }

    static JsonObject status(JsonObject req) {
        var r = http.get(
                api, "/v2/tx/status?tx_hash=" + req.getString("tx_hash") + "&chain_id=" + req.getString("chain_id"));
        return r.statusCode() == 200 ? new JsonObject(r.body()) : new JsonObject();
    }

    @Test
    @DisplayName(
            "ethers-signed txs in hex and base64 are accepted under their hash, executed (status 1, value moved), indexed and tracked to STATE_COMPLETED_SUCCESS under it; a bad signature, another chain id, a used nonce are 400s with the node's message")
    void submitsThroughTheChainsJsonRpc() throws Exception {
        EthWallet wallet = new EthWallet(World.TEST_ACCOUNT_KEYS.get(4));
        String recipient = "0x" + "5e".repeat(20);
        BigInteger value = BigInteger.TEN.pow(17);
        JsonArray signed = wallet.sign(
                EthWallet.eip1559(chainId, 0, recipient, value, "0x", 21_000, GAS_PRICE),
                EthWallet.eip1559(chainId, 1, recipient, value, "0x", 21_000, GAS_PRICE),
                EthWallet.eip1559(1, 2, recipient, value, "0x", 21_000, GAS_PRICE),
                EthWallet.eip1559(chainId, 0, recipient, BigInteger.ONE, "0x", 21_000, GAS_PRICE));
        String hex = signed.getJsonObject(0).getString("raw");
        String base64 = Base64.getEncoder()
                .encodeToString(
                        dev.weft.chain.Hex.decode(signed.getJsonObject(1).getString("raw")));
        for (int i = 0; i < 2; i++) {
            var r = submit(i == 0 ? hex : base64);
            assertEquals(200, r.statusCode(), r.body());
            String hash = signed.getJsonObject(i).getString("hash");
            assertEquals(
                    new JsonObject()
                            .put("tx_hash", hash)
                            .put("explorer_link", "http://scan.weft.localhost/" + CHAIN + "/txs/" + hash),
                    new JsonObject(r.body()));
        }
        refused(
                EthWallet.withHighS(signed.getJsonObject(2).getString("raw")),
                "invalid chain id for signer: have 1 want " + chainId);
        refused(EthWallet.withHighS(hex), "invalid transaction v, r, s values");
        refused(signed.getJsonObject(3).getString("raw"), "nonce too low: next nonce 2, tx nonce 0");

        for (int i = 0; i < 2; i++) {
            String hash = signed.getJsonObject(i).getString("hash");
            Await.until(
                    "receipt of " + hash,
                    30,
                    () -> eth("eth_getTransactionReceipt", hash).getValue("result") != null);
            assertEquals(
                    "0x1",
                    eth("eth_getTransactionReceipt", hash)
                            .getJsonObject("result")
                            .getString("status"));
            Await.until(
                    "indexed " + hash,
                    60,
                    () -> http.get(api, "/indexer/tx/v1/evm-txs/" + hash).statusCode() == 200);
            JsonObject indexed = new JsonObject(
                            http.get(api, "/indexer/tx/v1/evm-txs/" + hash).body())
                    .getJsonObject("tx");
            assertEquals(hash, indexed.getString("transactionHash"), indexed.encode());
            assertEquals(wallet.address(), indexed.getString("from"));
            assertEquals(recipient, indexed.getString("to"));
            assertEquals("0x1", indexed.getString("status"));
        }
        assertEquals(
                "0x" + value.multiply(BigInteger.TWO).toString(16),
                eth("eth_getBalance", recipient, "latest").getString("result"));
        for (int i = 0; i < 2; i++) {
            String hash = signed.getJsonObject(i).getString("hash");
            JsonObject req = new JsonObject().put("tx_hash", hash).put("chain_id", CHAIN);
            Await.until(
                    "tracked " + hash,
                    60,
                    () -> "STATE_COMPLETED_SUCCESS".equals(status(req).getString("state")));
            JsonObject status = status(req);
            assertEquals("STATE_COMPLETED", status.getString("status"), status.encode());
            assertEquals(1, status.getJsonArray("transfers").size(), status.encode());
            assertEquals(
                    new JsonArray(),
                    status.getJsonArray("transfers").getJsonObject(0).getJsonArray("transfer_sequence"),
                    status.encode());
        }
    }
}
