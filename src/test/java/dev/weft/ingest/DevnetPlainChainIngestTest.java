package dev.weft.ingest;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.weft.chain.Bech32;
import dev.weft.chain.Hex;
import dev.weft.node.WeftNode;
import dev.weft.testsupport.Await;
import dev.weft.testsupport.TestConfig;
import dev.weft.testsupport.TestNodes;
import dev.weft.testsupport.WeftExtension;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.WebClient;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A chain without the OPinit module (a plain Cosmos SDK 0.50 chain such as the Initia L1: opchild routes answer HTTP
 * 501, validators live in x/staking) is indexed from the first poll, proposers resolved through what it serves.
 */
class DevnetPlainChainIngestTest {
    @RegisterExtension
    static final WeftExtension weft = new WeftExtension();

    private static final long BLOCKS = 20;

    @Test
    @DisplayName(
            "Weft indexes a plain SDK chain (devnet.chain_kind=plain): /status reaches the head, blocks name their proposer")
    void indexesPlainChain() {
        Vertx vertx = weft.vertx();
        WebClient client = WebClient.create(vertx);
        TestConfig c = DevnetIngestTest.fastIngest(
                        DevnetIngestTest.devnet(weft.config().roles("devnet", "ingest", "api"), BLOCKS))
                .set("devnet.chain_kind", "plain");
        WeftNode node = weft.start(c);
        String api = "http://127.0.0.1:" + TestNodes.httpPort(node);
        String rpc = node.context().config().chain().rpcUrls().get(0);
        Await.until(
                "/status height " + BLOCKS,
                60,
                () -> get(client, api + "/status").getLong("height", 0L) >= BLOCKS);
        String proposer = get(client, rpc + "/block?height=5")
                .getJsonObject("result")
                .getJsonObject("block")
                .getJsonObject("header")
                .getString("proposer_address");
        JsonObject block = get(client, api + "/indexer/block/v1/blocks/5").getJsonObject("block");
        assertEquals(
                new JsonObject()
                        .put("moniker", "weft-devnet-sequencer")
                        .put("identity", "")
                        .put("operator_address", Bech32.encode("initvaloper", Hex.decode(proposer))),
                block.getJsonObject("proposer"));
    }

    private static JsonObject get(WebClient client, String url) {
        var r = TestNodes.await(client.getAbs(url).send());
        assertEquals(200, r.statusCode(), url + " → " + r.bodyAsString());
        return r.bodyAsJsonObject();
    }
}
