package dev.weft.config;

import java.util.EnumSet;
import java.util.Locale;

/**
 * The jobs a node can run that ship with the product; a node runs the roles its configuration names. {@code db} only
 * keeps the database (the embedded server of a local cluster that other nodes reach through {@code database.url}).
 * Roles from plugins (the devnet) are named by string: see {@link NodeConfig}.
 */
public enum Role {
    API,
    INGEST,
    EVM,
    RICHLIST,
    ROUTE,
    TRACK,
    DB;

    /** Whether the role's verticles run once per indexed chain (ingestion, the EVM tracer, the rich list). */
    public boolean perChain() {
        return this == INGEST || this == EVM || this == RICHLIST;
    }

    public String id() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** Every role {@code all} stands for (db is implied by any role that stores). */
    static EnumSet<Role> all() {
        return EnumSet.complementOf(EnumSet.of(DB));
    }

    /** The role of this name, or null. */
    static Role named(String name) {
        for (Role r : values()) if (r.id().equals(name)) return r;
        return null;
    }
}
