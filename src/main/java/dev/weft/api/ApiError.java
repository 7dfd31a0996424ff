package dev.weft.api;

import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.eventbus.ReplyFailure;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

/**
 * A client-facing error of either API, rendered as {@code {"code": <gRPC code>, "message": "...", "details": []}}
 * with the matching HTTP status (400↔3, 404↔5, 405↔12, 429↔8, 500↔2, 503↔14).
 */
public final class ApiError extends RuntimeException {
  private final int httpStatus;
  private final int grpcCode;
  private final JsonArray details;

  public ApiError(int httpStatus, String message) {
    this(httpStatus, message, new JsonArray());
  }

  public ApiError(int httpStatus, String message, JsonArray details) {
    super(message, null, false, false);
    this.httpStatus = httpStatus;
    this.grpcCode = grpcCodeOf(httpStatus);
    this.details = details;
  }

  public static ApiError badRequest(String message) {
    return new ApiError(400, message);
  }

  public static ApiError notFound(String message) {
    return new ApiError(404, message);
  }

  public static ApiError internal() {
    return new ApiError(500, "internal server error");
  }

  public static ApiError unavailable(String message) {
    return new ApiError(503, message);
  }

  /** The rollytics wording for a bad path or query value: {@code [INVALID_VALUE] invalid value for height: x (reason)}. */
  public static ApiError invalidValue(String name, String value, String reason) {
    return badRequest("[INVALID_VALUE] invalid value for " + name + ": " + value + " (" + reason + ")");
  }

  public int httpStatus() {
    return httpStatus;
  }

  public int grpcCode() {
    return grpcCode;
  }

  public JsonObject toJson() {
    return new JsonObject().put("code", grpcCode).put("message", getMessage()).put("details", details.copy());
  }

  public static int grpcCodeOf(int httpStatus) {
    return switch (httpStatus) {
      case 400, 413, 415 -> 3;   // INVALID_ARGUMENT
      case 401 -> 16;            // UNAUTHENTICATED
      case 403 -> 7;             // PERMISSION_DENIED
      case 404 -> 5;             // NOT_FOUND
      case 405, 501 -> 12;       // UNIMPLEMENTED
      case 409 -> 6;             // ALREADY_EXISTS
      case 429 -> 8;             // RESOURCE_EXHAUSTED
      case 503 -> 14;            // UNAVAILABLE
      case 408, 504 -> 4;        // DEADLINE_EXCEEDED
      default -> httpStatus >= 500 ? 2 : 3;
    };
  }

  /**
   * Maps the failure of an event-bus request. A handler that fails a message with an HTTP status as failure code
   * (400..599) passes its message to the client; no handler or a timeout means the service is unavailable.
   */
  public static ApiError fromBus(Throwable t, String service) {
    if (t instanceof ApiError e) return e;
    if (t instanceof ReplyException re) {
      if (re.failureType() == ReplyFailure.NO_HANDLERS) return unavailable(service + " is not running on any node");
      if (re.failureType() == ReplyFailure.TIMEOUT) return new ApiError(503, service + " did not answer in time");
      if (re.failureCode() >= 400 && re.failureCode() < 600) {
        return new ApiError(re.failureCode(), re.getMessage() == null ? "error" : re.getMessage());
      }
    }
    return internal();
  }
}
