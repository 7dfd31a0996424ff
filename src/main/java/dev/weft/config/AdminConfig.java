package dev.weft.config;

/**
 * The admin API ({@code /admin/*}): off unless a token is set; every request then needs {@code Authorization: Bearer
 * <token>}. With {@code port} set it has its own listener on {@code host} (loopback by default) instead of sharing the
 * API server's port; {@code port} is -1 when it shares.
 */
public record AdminConfig(String token, String host, int port) {
    public static final int SHARED = -1;

    static AdminConfig from(ConfigSource c) {
        String token = c.optionalString("admin.token");
        if (token != null && token.length() < 16)
            throw new ConfigException("admin.token", "must be at least 16 characters");
        return new AdminConfig(
                token, c.string("admin.host", "127.0.0.1"), c.intValue("admin.port", SHARED, SHARED, 65535));
    }

    public boolean enabled() {
        return token != null;
    }

    public boolean ownListener() {
        return port != SHARED;
    }
}
