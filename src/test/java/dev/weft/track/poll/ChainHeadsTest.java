package dev.weft.track.poll;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import dev.weft.config.TrackConfig;
import dev.weft.testsupport.TestConfig;
import dev.weft.testsupport.TestNodes;
import io.vertx.core.Vertx;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/** The watch API's node clients: one set per node however many API instances ask, a set of its own per node. */
class ChainHeadsTest {
    @Test
    void oneSetPerOwner() {
        Vertx vertx = Vertx.vertx();
        try {
            TrackConfig config = TestConfig.defaults().build().track();
            AtomicInteger made = new AtomicInteger();
            Supplier<ChainHeads> create = () -> {
                made.incrementAndGet();
                return new ChainHeads(vertx, c -> List.of(), c -> false, c -> List.of(), c -> false, config);
            };
            Object node = new Object();
            Object other = new Object();
            ChainHeads first = ChainHeads.shared(node, create);
            for (int apiInstance = 1; apiInstance < 4; apiInstance++)
                assertSame(first, ChainHeads.shared(node, create), "API instance " + apiInstance);
            assertEquals(1, made.get(), "one set for the node's four API instances");
            assertNotSame(first, ChainHeads.shared(other, create), "another node: its own");
            assertEquals(2, made.get());
            assertNull(TestNodes.await(first.head("unknown-1")), "no node known: no head");
        } finally {
            TestNodes.await(vertx.close());
        }
    }
}
