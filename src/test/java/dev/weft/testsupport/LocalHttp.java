package dev.weft.testsupport;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/**
 * Blocking HTTP/1.1 calls to a server on 127.0.0.1 from a test thread (the JDK client: no h2c upgrade), bodies as
 * strings; an I/O failure is an unchecked exception.
 */
public final class LocalHttp {
    private final HttpClient http = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(10))
            .build();

    public HttpResponse<String> get(int port, String pathAndQuery) {
        return send(HttpRequest.newBuilder(uri(port, pathAndQuery))
                .timeout(Duration.ofSeconds(60))
                .GET()
                .build());
    }

    /** A POST of a JSON body. */
    public HttpResponse<String> post(int port, String path, String json) {
        return send(HttpRequest.newBuilder(uri(port, path))
                .timeout(Duration.ofSeconds(60))
                .header("content-type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json))
                .build());
    }

    /** A DELETE without a body. */
    public HttpResponse<String> delete(int port, String pathAndQuery) {
        return send(HttpRequest.newBuilder(uri(port, pathAndQuery))
                .timeout(Duration.ofSeconds(60))
                .DELETE()
                .build());
    }

    private static URI uri(int port, String pathAndQuery) {
        return URI.create("http://127.0.0.1:" + port + pathAndQuery);
    }

    private HttpResponse<String> send(HttpRequest r) {
        try {
            return http.send(r, HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new IllegalStateException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
