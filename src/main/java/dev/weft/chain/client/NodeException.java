package dev.weft.chain.client;

/**
 * A failed node call. {@link #retryable()} tells whether asking again (possibly another URL) can help: transport
 * failures, timeouts, 5xx, 429 and JSON-RPC errors are; 501 (a route the node does not serve) and other 4xx (a 404
 * of an unknown validator, a bad request) are not.
 */
public final class NodeException extends RuntimeException {
    public enum Kind {
        TRANSPORT,
        HTTP,
        RPC,
        INVALID
    }

    private final Kind kind;
    private final int status;
    private final String url;

    public NodeException(Kind kind, int status, String url, String message) {
        super(message, null, false, false);
        this.kind = kind;
        this.status = status;
        this.url = url;
    }

    public static NodeException transport(String url, Throwable cause) {
        String m = cause.getMessage() == null ? cause.getClass().getSimpleName() : cause.getMessage();
        return new NodeException(Kind.TRANSPORT, 0, url, url + ": " + m);
    }

    public static NodeException http(String url, int status, String body) {
        return new NodeException(
                Kind.HTTP,
                status,
                url,
                url + ": HTTP " + status + (body == null || body.isBlank() ? "" : " " + abbreviate(body)));
    }

    public static NodeException rpc(String url, int code, String message) {
        return new NodeException(Kind.RPC, code, url, url + ": JSON-RPC error " + code + " " + abbreviate(message));
    }

    /** An answer that parses but is not what the protocol promises (missing fields, wrong shape). */
    public static NodeException invalid(String url, String message) {
        return new NodeException(Kind.INVALID, 0, url, url + ": " + message);
    }

    public Kind kind() {
        return kind;
    }

    /** The HTTP status (HTTP), the JSON-RPC error code (RPC), else 0. */
    public int status() {
        return status;
    }

    public String url() {
        return url;
    }

    public boolean retryable() {
        return switch (kind) {
            case HTTP -> status >= 500 && status != 501 || status == 429 || status == 408;
            // invalid request / method not found / invalid params: asking again cannot help
            case RPC -> status != -32600 && status != -32601 && status != -32602;
            default -> true;
        };
    }

    public boolean notFound() {
        return kind == Kind.HTTP && status == 404;
    }

    /**
     * The node does not serve this (404, or the 501 {@code {"code":12,"message":"Not Implemented"}} a Cosmos SDK 0.50
     * node answers for a route no module registered), or rejects the request as such (another 4xx): asking again cannot help.
     */
    public boolean notServed() {
        return kind == Kind.HTTP && (status == 501 || status >= 400 && status < 500 && status != 429 && status != 408);
    }

    private static String abbreviate(String s) {
        if (s == null) return "";
        String t = s.replaceAll("\\s+", " ").trim();
        return t.length() > 300 ? t.substring(0, 300) + "…" : t;
    }
}
