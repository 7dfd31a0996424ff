package dev.weft.devnet.exec;

import io.vertx.core.json.JsonObject;
import java.util.List;

/**
 * A module of a devnet chain: the message types it executes, a check of a message against the chain's state (run for
 * every message of a tx before any executes, so that a tx fails as a whole and changes nothing), and the execution of
 * a checked message, which cannot fail.
 */
public interface MsgModule {
    List<String> types();

    /** Throws {@link ExecError} when the chain refuses the message. */
    void check(MsgContext ctx, String typeUrl, JsonObject msg);

    /** Executes a checked message: its events go to {@code log}; returns the response message's bytes. */
    byte[] execute(MsgContext ctx, String typeUrl, JsonObject msg, EventLog log);

    /** Gas the message uses (a fixed cost per type: the devnet meters nothing). */
    default long gas(String typeUrl) {
        return 80_000;
    }
}
