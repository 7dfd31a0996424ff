package dev.weft.chain.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.weft.config.NodeClientOptions;
import dev.weft.testsupport.AnvilNode;
import dev.weft.testsupport.TestNodes;
import dev.weft.testsupport.WeftExtension;
import io.vertx.core.Vertx;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The JSON-RPC client against a real Anvil node. */
class EvmRpcClientTest {
    @RegisterExtension
    static final WeftExtension weft = new WeftExtension();

    @Test
    @DisplayName(
            "block number, block receipts, a batch answered in request order with a per-request error, a block trace, errors")
    void anvil() throws Exception {
        Vertx vertx = weft.vertx();
        try (AnvilNode anvil = AnvilNode.start()) {
            String tx = anvil.send(AnvilNode.ACCOUNT0, AnvilNode.ACCOUNT1, "0x", "0x1000");
            anvil.receipt(tx); // automine mines after eth_sendTransaction answers
            EvmRpcClient c = new EvmRpcClient(
                    vertx, List.of(anvil.url()), NodeClientOptions.defaults().withAttempts(2));
            long head = TestNodes.await(c.blockNumber());
            assertTrue(head >= 1);
            List<JsonNode> receipts = TestNodes.await(c.blockReceipts(head));
            assertEquals(1, receipts.size());
            assertEquals(tx, receipts.get(0).get("transactionHash").asText());
            List<EvmRpcClient.Result> batch = TestNodes.await(c.batch(List.of(
                    EvmRpcClient.Request.of("eth_blockNumber"),
                    EvmRpcClient.Request.of("no_such_method"),
                    EvmRpcClient.Request.of("eth_getTransactionReceipt", tx))));
            assertEquals(head, Long.decode(batch.get(0).result().asText()));
            assertFalse(batch.get(1).ok());
            assertEquals(tx, batch.get(2).result().get("transactionHash").asText());
            JsonNode trace = TestNodes.await(c.traceBlock(head, "callTracer", Duration.ofSeconds(10)));
            assertEquals(1, trace.size());
            assertEquals("CALL", trace.get(0).get("result").get("type").asText());
            NodeException unknown = assertInstanceOf(
                    NodeException.class,
                    assertThrows(
                            RuntimeException.class,
                            () -> TestNodes.await(c.call("no_such_method", EvmRpcClient.params()))));
            assertEquals(NodeException.Kind.RPC, unknown.kind());
            assertFalse(unknown.retryable());
            assertThrows(
                    RuntimeException.class,
                    () -> TestNodes.await(c.blockReceipts(head + 1000)),
                    "a future block is not an empty block");
            // the streamed form ingestion reads: the same receipt; Anvil adds fields the stored record drops, so it is
            // not verbatim
            List<dev.weft.chain.model.BlockReceipt> spans = TestNodes.await(c.blockReceiptSpans(head));
            assertEquals(1, spans.size());
            assertFalse(spans.get(0).verbatim());
            assertEquals(receipts.get(0), spans.get(0).tree());
            NodeException future = assertInstanceOf(
                    NodeException.class,
                    assertThrows(RuntimeException.class, () -> TestNodes.await(c.blockReceiptSpans(head + 1000))));
            assertEquals(NodeException.Kind.RPC, future.kind());
            concurrentBatches(c, head);
        }
    }

    /** One client shared by threads (verticles, a test thread): each batch still gets its own answers back. */
    private static void concurrentBatches(EvmRpcClient c, long head) throws Exception {
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(8);
        try {
            List<EvmRpcClient.Request> requests = new java.util.ArrayList<>();
            for (int i = 0; i < 64; i++)
                requests.add(EvmRpcClient.Request.of(i % 2 == 0 ? "eth_blockNumber" : "eth_chainId"));
            List<java.util.concurrent.Future<List<EvmRpcClient.Result>>> all = new java.util.ArrayList<>();
            for (int i = 0; i < 200; i++) {
                all.add(pool.submit(() -> TestNodes.await(c.batch(requests))));
                pool.submit(() -> TestNodes.await(c.blockNumber()));
            }
            String chainId = TestNodes.await(c.call("eth_chainId", EvmRpcClient.params()))
                    .asText();
            for (var f : all) {
                List<EvmRpcClient.Result> r = f.get();
                for (int i = 0; i < r.size(); i++) {
                    assertEquals(
                            i % 2 == 0 ? "0x" + Long.toHexString(head) : chainId,
                            r.get(i).result().asText());
                }
            }
        } finally {
            pool.shutdownNow();
        }
    }
}
