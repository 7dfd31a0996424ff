package dev.weft.config;

import java.util.Locale;
import java.util.Set;

/** Root log level (trace, debug, info, warn, error). */
public record LogConfig(String level) {
    private static final Set<String> LEVELS = Set.of("TRACE", "DEBUG", "INFO", "WARN", "ERROR", "OFF");

    static LogConfig from(ConfigSource c) {
        String level = c.string("log.level", "info").trim().toUpperCase(Locale.ROOT);
        if (!LEVELS.contains(level))
            throw new ConfigException(
                    "log.level",
                    "must be one of trace, debug, info, warn, error, off (got \"" + level.toLowerCase(Locale.ROOT)
                            + "\")");
        return new LogConfig(level);
    }
}
