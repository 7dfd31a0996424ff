package dev.weft.node;

import static dev.weft.testsupport.TestNodes.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import dev.weft.testsupport.Ports;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.Message;
import io.vertx.core.json.JsonObject;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** Two clustered Vert.x instances in one JVM (Hazelcast TCP-IP on loopback): a request on one is answered on the other. */
class ClusterTest {

    @Test
    @DisplayName("a request sent on node A is answered by a consumer on node B")
    void requestCrossesNodes() {
        int pa = Ports.free();
        int pb = Ports.free();
        String name = "weft-test-" + ProcessHandle.current().pid() + "-" + pa;
        Vertx b = await(WeftNode.createVertx("127.0.0.1", ClusterSetup.loopback(name, pb, List.of(pa, pb))));
        Vertx a = null;
        try {
            await(b.eventBus()
                    .<JsonObject>consumer(
                            "weft.test.echo",
                            (Message<JsonObject> m) -> m.reply(new JsonObject()
                                    .put("echo", m.body().getString("q"))
                                    .put("node", "b")))
                    .completion());
            a = await(WeftNode.createVertx("127.0.0.1", ClusterSetup.loopback(name, pa, List.of(pa, pb))));
            assertNotEquals(
                    ((io.vertx.core.internal.VertxInternal) a).clusterManager().getNodeId(),
                    ((io.vertx.core.internal.VertxInternal) b).clusterManager().getNodeId());
            Vertx from = a;
            JsonObject reply = await(retry(
                    () -> from.eventBus()
                            .<JsonObject>request("weft.test.echo", new JsonObject().put("q", "ping"))
                            .map(Message::body),
                    40));
            assertEquals(new JsonObject().put("echo", "ping").put("node", "b"), reply);
            assertEquals(
                    2,
                    ((io.vertx.core.internal.VertxInternal) a)
                            .clusterManager()
                            .getNodes()
                            .size());
        } finally {
            if (a != null) await(a.close());
            await(b.close());
        }
    }

    /** The consumer's registration reaches a new member shortly after it joins; retry NO_HANDLERS a few times. */
    static <T> io.vertx.core.Future<T> retry(java.util.function.Supplier<io.vertx.core.Future<T>> op, int attempts) {
        return op.get().recover(e -> {
            if (attempts <= 1) return io.vertx.core.Future.failedFuture(e);
            io.vertx.core.Promise<Void> p = io.vertx.core.Promise.promise();
            new java.util.Timer(true)
                    .schedule(
                            new java.util.TimerTask() {
                                @Override
                                public void run() {
                                    p.complete();
                                }
                            },
                            250);
            return p.future().compose(v -> retry(op, attempts - 1));
        });
    }
}
