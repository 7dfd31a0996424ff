package dev.weft.config;

/** An invalid or missing configuration value; the message is one line and names the key. */
public final class ConfigException extends RuntimeException {
    public ConfigException(String key, String problem) {
        super("configuration key '" + key + "': " + problem);
    }

    public ConfigException(String message) {
        super(message);
    }
}
