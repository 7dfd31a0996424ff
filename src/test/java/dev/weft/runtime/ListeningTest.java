package dev.weft.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.junit5.VertxExtension;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(VertxExtension.class)
class ListeningTest {
    @Test
    void aPortAlreadyTakenNamesTheSettingTheHostAndThePort(Vertx vertx) throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            int port = taken.getLocalPort();
            Future<HttpServer> listening = Listening.named(
                    vertx.createHttpServer()
                            .requestHandler(r -> r.response().end())
                            .listen(port, "127.0.0.1"),
                    "devnet.rpc_port",
                    "127.0.0.1",
                    port);
            Throwable e = listening
                    .toCompletionStage()
                    .toCompletableFuture()
                    .handle((ok, err) -> err)
                    .get(10, TimeUnit.SECONDS);
            assertEquals(
                    "devnet.rpc_port: cannot listen on 127.0.0.1:" + port
                            + ": Address already in use (another process holds the"
                            + " port: stop it, or choose another with devnet.rpc_port / WEFT_DEVNET_RPC_PORT)",
                    e.getMessage());
        }
    }

    @Test
    void anyOtherFailureIsLeftAsItIs() {
        IllegalArgumentException other = new IllegalArgumentException("host not found");
        Future<Object> f = Listening.named(Future.failedFuture(other), "http.port", "example.invalid", 8080);
        assertSame(other, f.cause());
    }
}
