package dev.weft.testsupport;

import java.io.IOException;
import java.net.ServerSocket;

/** Free loopback ports, so parallel test runs never collide. */
public final class Ports {
    private Ports() {}

    public static int free() {
        try (ServerSocket s = new ServerSocket(0)) {
            s.setReuseAddress(true);
            return s.getLocalPort();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
