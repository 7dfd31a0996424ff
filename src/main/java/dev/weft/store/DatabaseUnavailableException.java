package dev.weft.store;

/** PostgreSQL could not be started or reached; the message says where and why in one line. */
public final class DatabaseUnavailableException extends RuntimeException {
    public DatabaseUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}
