package dev.weft.config;

import java.util.EnumSet;
import java.util.Locale;
import java.util.Set;

/**
 * The jobs a node can run; a node runs the roles its configuration names. {@code db} only keeps the database (the
 * embedded server of a local cluster that other nodes reach through {@code database.url}).
 */
public enum Role {
    API,
    INGEST,
    EVM,
    RICHLIST,
    ROUTE,
    TRACK,
    DEVNET,
    DB;

    public String id() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static Set<Role> parse(String key, Iterable<String> names) {
        EnumSet<Role> roles = EnumSet.noneOf(Role.class);
        for (String n : names) {
            String s = n.trim().toLowerCase(Locale.ROOT);
            if (s.isEmpty()) continue;
            if (s.equals("all")) {
                roles.addAll(EnumSet.complementOf(EnumSet.of(DB))); // db is implied by any role that stores
                continue;
            }
            Role match = null;
            for (Role r : values()) if (r.id().equals(s)) match = r;
            if (match == null)
                throw new ConfigException(
                        key,
                        "unknown role \"" + n.trim()
                                + "\" (known: all, api, ingest, evm, richlist, route, track, devnet, db)");
            roles.add(match);
        }
        if (roles.isEmpty()) throw new ConfigException(key, "names no role");
        return roles;
    }
}
