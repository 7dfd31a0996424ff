package dev.weft.track;

/** A tracking request refused: the HTTP status and the client-facing message (as Skip words them where it does). */
public final class TrackError extends RuntimeException {
  private final int status;

  public TrackError(int status, String message) {
    super(message, null, false, false);
    this.status = status;
  }

  public int status() {
    return status;
  }

  public static TrackError badRequest(String message) {
    return new TrackError(400, message);
  }

  public static TrackError chainNotSupported() {
    return new TrackError(404, "chain ID not supported");
  }

  public static TrackError txNotFound() {
    return new TrackError(404, "tx not found");
  }
}
