package dev.weft.bus;

import io.vertx.core.Future;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.EventBus;
import io.vertx.core.eventbus.Message;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.eventbus.ReplyFailure;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

/**
 * The one error of Weft's services, on the event bus and over HTTP: an HTTP status, a client-facing message and
 * optional Skip-style {@code details} ({@code google.rpc.ErrorInfo} entries with a {@code reason} such as
 * {@code BAD_PRICE_ERROR}). Clients see {@code {"code": <gRPC code>, "message": "...", "details": []}} with the
 * matching HTTP status (400↔3, 404↔5, 405↔12, 429↔8, 500↔2, 503↔14).
 *
 * <p>On the bus it is encoded one way: a request handler fails the message with the HTTP status as failure code and
 * {@code {"message","details"}} as the failure message ({@link #failTo}); the requester decodes it back
 * ({@link #fromBus}), which also names an absent or silent service.
 */
public final class BusError extends RuntimeException {
    private final int httpStatus;
    private final int grpcCode;
    private final JsonArray details;

    public BusError(int httpStatus, String message) {
        this(httpStatus, message, new JsonArray());
    }

    public BusError(int httpStatus, String message, JsonArray details) {
        super(bounded(message), null, false, false);
        this.httpStatus = httpStatus;
        this.grpcCode = grpcCodeOf(httpStatus);
        this.details = details;
    }

    /** The longest message kept whole: a message quoting a request's value (a denom, an amount) is cut after it. */
    static final int MAX_MESSAGE = 1_000;

    /** A message quoting a megabyte-long request value would repeat it whole: cut, saying how long it was. */
    private static String bounded(String message) {
        // the slack keeps a message cut once (then carried over the bus and read back) from being cut again
        if (message == null || message.length() <= MAX_MESSAGE + 40) return message;
        return message.substring(0, MAX_MESSAGE) + "… (" + message.length() + " characters)";
    }

    public static BusError badRequest(String message) {
        return new BusError(400, message);
    }

    public static BusError notFound(String message) {
        return new BusError(404, message);
    }

    public static BusError internal() {
        return new BusError(500, "internal server error");
    }

    public static BusError unavailable(String message) {
        return new BusError(503, message);
    }

    /** The rollytics wording for a bad path or query value: {@code [INVALID_VALUE] invalid value for height: x (reason)}. */
    public static BusError invalidValue(String name, String value, String reason) {
        return badRequest("[INVALID_VALUE] invalid value for " + name + ": " + value + " (" + reason + ")");
    }

    /** A {@code google.rpc.ErrorInfo} detail as Skip writes it (metadata values are strings). */
    public static JsonObject errorInfo(String reason, JsonObject metadata) {
        return new JsonObject()
                .put("@type", "type.googleapis.com/google.rpc.ErrorInfo")
                .put("reason", reason)
                .put("domain", "weft")
                .put("metadata", metadata);
    }

    public int httpStatus() {
        return httpStatus;
    }

    public int grpcCode() {
        return grpcCode;
    }

    public JsonArray details() {
        return details;
    }

    public JsonObject toJson() {
        return new JsonObject()
                .put("code", grpcCode)
                .put("message", getMessage())
                .put("details", details.copy());
    }

    public static int grpcCodeOf(int httpStatus) {
        return switch (httpStatus) {
            case 400, 413, 415 -> 3; // INVALID_ARGUMENT
            case 401 -> 16; // UNAUTHENTICATED
            case 403 -> 7; // PERMISSION_DENIED
            case 404 -> 5; // NOT_FOUND
            case 405, 501, 505 -> 12; // UNIMPLEMENTED
            case 409 -> 6; // ALREADY_EXISTS
            case 410 -> 11; // OUT_OF_RANGE (events pruned by retention)
            case 429 -> 8; // RESOURCE_EXHAUSTED
            case 503 -> 14; // UNAVAILABLE
            case 408, 504 -> 4; // DEADLINE_EXCEEDED
            default -> httpStatus >= 500 ? 2 : 3;
        };
    }

    /** Fails an event-bus request with this error. */
    public void failTo(Message<?> msg) {
        msg.fail(
                httpStatus,
                new JsonObject()
                        .put("message", getMessage())
                        .put("details", details)
                        .encode());
    }

    /** Fails an event-bus request with {@code t}: itself when it is a BusError, else an internal error. */
    public static void failTo(Message<?> msg, Throwable t) {
        (t instanceof BusError e ? e : internal()).failTo(msg);
    }

    /**
     * A request to {@code service} at {@code address}: its JSON reply, or a failure that is always a BusError
     * ({@link #fromBus}).
     */
    public static Future<JsonObject> request(
            EventBus bus, String address, JsonObject body, DeliveryOptions delivery, String service) {
        return bus.<JsonObject>request(address, body, delivery)
                .map(Message::body)
                .recover(e -> Future.failedFuture(fromBus(e, service)));
    }

    /**
     * Decodes the failure of an event-bus request. A handler's {@link #failTo} (a 400..599 failure code) passes its
     * message and details to the client; no handler or a timeout means the service is unavailable; anything else is an
     * internal error.
     */
    public static BusError fromBus(Throwable t, String service) {
        if (t instanceof BusError e) return e;
        if (t instanceof ReplyException re) {
            if (re.failureType() == ReplyFailure.NO_HANDLERS)
                return unavailable(service + " is not running on any node");
            if (re.failureType() == ReplyFailure.TIMEOUT) return new BusError(503, service + " did not answer in time");
            if (re.failureCode() >= 400 && re.failureCode() < 600) return decode(re.failureCode(), re.getMessage());
        }
        return internal();
    }

    /** The failure message of {@link #failTo}; a message that is not that JSON is passed on as it is. */
    private static BusError decode(int status, String message) {
        if (message == null) return new BusError(status, "error");
        if (message.startsWith("{")) {
            try {
                JsonObject body = new JsonObject(message);
                return new BusError(
                        status, body.getString("message", "error"), body.getJsonArray("details", new JsonArray()));
            } catch (DecodeException | ClassCastException e) {
                return new BusError(status, message);
            }
        }
        return new BusError(status, message);
    }
}
