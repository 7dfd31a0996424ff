package dev.weft.route.registry;

/** A registry file that cannot be read or is inconsistent; the message names the file and the entry. */
public final class RegistryException extends RuntimeException {
    public RegistryException(String message) {
        super(message);
    }
}
