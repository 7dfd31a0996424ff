package dev.weft.route;

import dev.weft.api.ApiError;
import io.vertx.core.eventbus.Message;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

/**
 * A client error of the routing API, with an HTTP status and optional Skip-style {@code details}
 * ({@code google.rpc.ErrorInfo} entries with a {@code reason} such as {@code BAD_PRICE_ERROR}).
 *
 * <p>The failure protocol of the route addresses lives here, in one place: the route verticle fails a message with the
 * HTTP status as failure code and {@code {"message","details"}} encoded as the failure message ({@link #failTo});
 * the HTTP side turns the reply failure back into an {@link ApiError} with the same details ({@link #toApiError}).
 */
public final class RouteError extends RuntimeException {
  private final int status;
  private final JsonArray details;

  public RouteError(int status, String message) {
    this(status, message, new JsonArray());
  }

  public RouteError(int status, String message, JsonArray details) {
    super(message, null, false, false);
    this.status = status;
    this.details = details;
  }

  public static RouteError badRequest(String message) {
    return new RouteError(400, message);
  }

  public static RouteError notFound(String message) {
    return new RouteError(404, message);
  }

  /** A {@code google.rpc.ErrorInfo} detail as Skip writes it (metadata values are strings). */
  public static JsonObject errorInfo(String reason, JsonObject metadata) {
    return new JsonObject().put("@type", "type.googleapis.com/google.rpc.ErrorInfo").put("reason", reason)
        .put("domain", "weft").put("metadata", metadata);
  }

  public int status() {
    return status;
  }

  public JsonArray details() {
    return details;
  }

  public ApiError toApiError() {
    return new ApiError(status, getMessage(), details.copy());
  }

  /** Fails an event-bus request with this error. */
  public void failTo(Message<?> msg) {
    msg.fail(status, new JsonObject().put("message", getMessage()).put("details", details).encode());
  }

  /** The API error of a failed route request (decoding {@link #failTo}), or the generic bus mapping. */
  public static ApiError toApiError(Throwable t, String service) {
    if (t instanceof RouteError e) return e.toApiError();
    if (t instanceof ReplyException re && re.failureCode() >= 400 && re.failureCode() < 600 && re.getMessage() != null
        && re.getMessage().startsWith("{")) {
      try {
        JsonObject body = new JsonObject(re.getMessage());
        return new ApiError(re.failureCode(), body.getString("message", "error"), body.getJsonArray("details", new JsonArray()));
      } catch (DecodeException | ClassCastException e) {
        return ApiError.fromBus(t, service);
      }
    }
    return ApiError.fromBus(t, service);
  }
}
