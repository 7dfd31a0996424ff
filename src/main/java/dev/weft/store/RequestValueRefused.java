package dev.weft.store;

import io.vertx.pgclient.PgException;

/**
 * Which database errors a request's values cause rather than a fault of Weft or of the database: PostgreSQL's data
 * exceptions (SQLSTATE class 22: 22P02 invalid text representation, 22003 numeric value out of range, 22021 character
 * not in repertoire, 22001 string too long, …) and program limits (class 54: 54000 a value too large for an index, 54001
 * statement too complex). The API answers them with a 400 and logs them at WARN: the request, not the node, is wrong.
 */
public final class RequestValueRefused {
    private RequestValueRefused() {}

    /** The SQLSTATE of {@code failure} (or of its cause) when the request's values caused it, else null. */
    public static String sqlState(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof PgException pg) {
                String state = pg.getSqlState();
                return state != null && (state.startsWith("22") || state.startsWith("54")) ? state : null;
            }
        }
        return null;
    }

    /** The client-facing message for a refused value (the database's own words stay in the log). */
    public static String message(String sqlState) {
        return switch (sqlState) {
            case "22P02" -> "a request value is not valid for its type (SQLSTATE 22P02)";
            case "22003" -> "a request value is out of range (SQLSTATE 22003)";
            case "22021" -> "a request value holds a character the database cannot store (SQLSTATE 22021)";
            case "22001" -> "a request value is too long (SQLSTATE 22001)";
            default ->
                sqlState.startsWith("54")
                        ? "a request value is too large for the database (SQLSTATE " + sqlState + ")"
                        : "a request value is invalid (SQLSTATE " + sqlState + ")";
        };
    }
}
