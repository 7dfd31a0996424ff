package dev.weft.api;

import io.vertx.core.json.JsonObject;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/** HTTP/1.1 over a plain socket, for requests no HTTP client would send (half-sent, malformed, oversized). */
final class RawHttp implements AutoCloseable {
    final Socket socket;

    RawHttp(int port) throws IOException {
        socket = new Socket("127.0.0.1", port);
        socket.setSoTimeout(20_000);
    }

    RawHttp write(String s) throws IOException {
        socket.getOutputStream().write(s.getBytes(StandardCharsets.ISO_8859_1));
        socket.getOutputStream().flush();
        return this;
    }

    /** Reads one response (by content-length), or null when the server closed the connection without one. */
    Response read() throws IOException {
        InputStream in = socket.getInputStream();
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        int b;
        while ((b = in.read()) >= 0) {
            head.write(b);
            byte[] h = head.toByteArray();
            int n = h.length;
            if (n >= 4 && h[n - 4] == '\r' && h[n - 3] == '\n' && h[n - 2] == '\r' && h[n - 1] == '\n') break;
        }
        if (head.size() == 0) return null;
        String[] lines = head.toString(StandardCharsets.ISO_8859_1).split("\r\n");
        int status = Integer.parseInt(lines[0].split(" ")[1]);
        Map<String, String> headers = new TreeMap<>();
        for (int i = 1; i < lines.length; i++) {
            int c = lines[i].indexOf(':');
            if (c > 0)
                headers.put(
                        lines[i].substring(0, c).trim().toLowerCase(Locale.ROOT),
                        lines[i].substring(c + 1).trim());
        }
        int length = Integer.parseInt(headers.getOrDefault("content-length", "0"));
        byte[] body = in.readNBytes(length);
        return new Response(status, headers, new String(body, StandardCharsets.UTF_8));
    }

    /** Whether the server has closed the connection (end of stream, or a reset), waiting at most the socket timeout. */
    boolean closedByServer() throws IOException {
        try {
            return socket.getInputStream().read() < 0;
        } catch (SocketTimeoutException e) {
            return false;
        } catch (IOException e) {
            return true;
        }
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }

    record Response(int status, Map<String, String> headers, String body) {
        JsonObject json() {
            return new JsonObject(body);
        }
    }
}
