package dev.weft.devnet.ibc;

import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;

/**
 * ICS-04 acknowledgements as ibc-go v8 writes them: {@code {"result":"AQ=="}} for success and, for a failure,
 * {@code {"error":"ABCI code: N: error handling packet: see events for details"}} (the details stay in events so that
 * the ack is deterministic).
 */
public final class Acks {
    private Acks() {}

    public static byte[] success() {
        return "{\"result\":\"AQ==\"}".getBytes(StandardCharsets.UTF_8);
    }

    public static byte[] error(int abciCode) {
        return ("{\"error\":\"ABCI code: " + abciCode + ": error handling packet: see events for details\"}")
                .getBytes(StandardCharsets.UTF_8);
    }

    /** The Move ibc-hooks' own error acknowledgement, which carries the error text. */
    public static byte[] moveHookError(String error) {
        return new JsonObject()
                .put("error", "ibc move hook error: " + error)
                .encode()
                .getBytes(StandardCharsets.UTF_8);
    }

    public static boolean isSuccess(byte[] ack) {
        try {
            return new JsonObject(new String(ack, StandardCharsets.UTF_8)).containsKey("result");
        } catch (RuntimeException e) {
            return false;
        }
    }

    /** The error text of an error ack, or null. */
    public static String errorText(byte[] ack) {
        try {
            return new JsonObject(new String(ack, StandardCharsets.UTF_8)).getString("error");
        } catch (RuntimeException e) {
            return null;
        }
    }

    /** gogoproto's text form of the Acknowledgement ({@code ack.String()} in the transfer module's ack event). */
    public static String protoText(byte[] ack) {
        String err = errorText(ack);
        return err != null ? "error:\"" + err + "\" " : "result:\"\\001\" ";
    }
}
