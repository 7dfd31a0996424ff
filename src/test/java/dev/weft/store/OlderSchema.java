package dev.weft.store;

import java.sql.Statement;

/** A database as an earlier release left it, for the tests of a migration that upgrades one in place. */
final class OlderSchema {
    private OlderSchema() {}

    /** Applies and records every migration before {@code version} (e.g. {@code "V011"}) on {@code st}'s connection. */
    static void before(Statement st, String version) throws Exception {
        st.execute(
                "CREATE TABLE weft_migration (version text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())");
        for (Migrations.Migration m : Migrations.load()) {
            if (m.version().startsWith(version)) return;
            st.execute(m.sql());
            st.execute("INSERT INTO weft_migration (version) VALUES ('" + m.version() + "')");
        }
        throw new IllegalArgumentException("no migration " + version);
    }
}
