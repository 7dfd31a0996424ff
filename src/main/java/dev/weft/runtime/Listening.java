package dev.weft.runtime;

import dev.weft.config.ConfigSource;
import io.vertx.core.Future;
import java.net.BindException;

/**
 * A listener that cannot bind names its port and the setting that chose it: the socket's own error ("Address already in
 * use") says neither, and a node opens several ports (the API, the admin API, the event-bus bridge, the devnet's nodes).
 */
public final class Listening {
    private Listening() {}

    /** {@code listening} failed with the setting, host and port in its message when the bind failed. */
    public static <T> Future<T> named(Future<T> listening, String setting, String host, int port) {
        return listening.recover(e -> Future.failedFuture(
                bindFailure(e)
                        ? new IllegalStateException(
                                setting + ": cannot listen on "
                                        + host + ":" + port + ": " + e.getMessage()
                                        + " (another process holds the port: stop it, or choose another with "
                                        + setting + " / " + ConfigSource.envName(setting) + ")",
                                e)
                        : e));
    }

    private static boolean bindFailure(Throwable e) {
        for (Throwable c = e; c != null; c = c.getCause()) {
            if (c instanceof BindException
                    || c.getMessage() != null && c.getMessage().contains("Address already in use")) return true;
        }
        return false;
    }
}
