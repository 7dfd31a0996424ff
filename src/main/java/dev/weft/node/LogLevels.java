package dev.weft.node;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import dev.weft.config.LogConfig;
import org.slf4j.LoggerFactory;

/** Applies the configured root log level to Logback. */
public final class LogLevels {
    private LogLevels() {}

    public static void apply(LogConfig log) {
        if (LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME) instanceof Logger root) {
            root.setLevel(Level.toLevel(log.level(), Level.INFO));
        }
    }
}
