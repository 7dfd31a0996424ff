package dev.weft.api;

import dev.weft.bus.BusError;
import dev.weft.config.ExportConfig;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.ext.web.RoutingContext;
import java.util.List;
import java.util.Locale;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * CSV exports of keyset lists ({@code format=csv} or {@code Accept: text/csv}): RFC 4180 text (a header row, CRLF line
 * ends, fields holding a quote, comma, CR or LF quoted with inner quotes doubled), streamed as a chunked response one
 * keyset page ({@code export.page_rows} rows) at a time. The next page is read only once the previous one is written and the
 * socket's write queue has room ({@code drainHandler}), so an export holds one page in memory however long it is and
 * however slowly the client reads. At most {@code export.max_rows} rows are written.
 *
 * <p>The first page is read before anything is sent, so a failure there is still the API's JSON error. A failure
 * after the header row can no longer change the status: the connection is reset without the chunked body's last
 * (zero-length) chunk, which HTTP clients report as a truncated body (RFC 9112, section 7.1).
 */
final class CsvExport {
    private static final Logger LOG = LoggerFactory.getLogger(CsvExport.class);

    static final String CONTENT_TYPE = "text/csv; charset=utf-8";

    /** One page of rows, and the cursor after its last row (null when the list ends there). */
    record Page<C>(List<String[]> rows, C next) {}

    /** Reads the page after {@code cursor} (the start cursor for the first page), at most {@code limit} rows. */
    interface Pager<C> {
        Future<Page<C>> next(C cursor, int limit);
    }

    private CsvExport() {}

    /**
     * Whether the request asks for CSV: {@code format=csv}, or no {@code format} and an {@code Accept} header naming
     * {@code text/csv}. A {@code format} other than {@code json} or {@code csv} is a 400.
     */
    static boolean wanted(RoutingContext rc) {
        String f = rc.queryParams().get("format");
        if (f == null || f.isBlank()) return accepts(rc.request().getHeader("accept"));
        return switch (f.trim().toLowerCase(Locale.ROOT)) {
            case "csv" -> true;
            case "json" -> false;
            default -> throw BusError.invalidValue("format", f, "must be json or csv");
        };
    }

    /**
     * What the rate limiter checks before routing (never throws): the request would be a CSV export (one of the
     * exporting lists, also under {@code /chains/{id}}, asking for CSV).
     */
    static boolean requested(HttpServerRequest req) {
        String path = req.path();
        if (path == null
                || !(path.contains("/indexer/tx/v1/txs/by_account/")
                        || path.contains("/indexer/tx/v1/evm-txs/by_account/")
                        || path.contains("/indexer/account/v1/") && path.endsWith("/transfers"))) return false;
        String f = req.getParam("format");
        if (f != null && !f.isBlank()) return f.trim().equalsIgnoreCase("csv");
        return accepts(req.getHeader("accept"));
    }

    private static boolean accepts(String accept) {
        return accept != null && accept.toLowerCase(Locale.ROOT).contains("text/csv");
    }

    /** Streams the export: the header row, then the pages from {@code start}, at most {@code export.max_rows} rows. */
    static <C> void stream(
            RoutingContext rc, String filename, List<String> header, ExportConfig export, C start, Pager<C> pager) {
        new Run<>(rc, filename, header, export.maxRows(), export.pageRows(), pager).step(start, 0);
    }

    private static final class Run<C> {
        private final RoutingContext rc;
        private final HttpServerResponse response;
        private final String filename;
        private final List<String> header;
        private final int maxRows;
        private final int pageRows;
        private final Pager<C> pager;

        Run(RoutingContext rc, String filename, List<String> header, int maxRows, int pageRows, Pager<C> pager) {
            this.rc = rc;
            this.response = rc.response();
            this.filename = filename;
            this.header = header;
            this.maxRows = maxRows;
            this.pageRows = pageRows;
            this.pager = pager;
        }

        void step(C cursor, int written) {
            Future<Page<C>> page;
            try {
                page = pager.next(cursor, Math.min(pageRows, maxRows - written));
            } catch (RuntimeException e) {
                page = Future.failedFuture(e);
            }
            page.onComplete(ar -> {
                if (response.closed() || response.ended()) return; // the client went away: stop reading
                if (ar.failed()) {
                    fail(ar.cause());
                    return;
                }
                Buffer out = Buffer.buffer(16 * 1024);
                if (!response.headWritten()) {
                    response.setStatusCode(200)
                            .setChunked(true)
                            .putHeader("content-type", CONTENT_TYPE)
                            .putHeader("content-disposition", "attachment; filename=\"" + filename + "\"");
                    if (HttpGuards.isHead(rc)) {
                        response.end();
                        return;
                    }
                    line(out, header.toArray(new String[0]));
                }
                List<String[]> rows = ar.result().rows();
                for (String[] row : rows) line(out, row);
                int now = written + rows.size();
                C next = ar.result().next();
                if (next == null || now >= maxRows || rows.isEmpty()) {
                    response.end(out);
                    return;
                }
                response.write(out);
                if (response.writeQueueFull()) {
                    response.drainHandler(v -> {
                        response.drainHandler(null);
                        step(next, now);
                    });
                } else {
                    step(next, now);
                }
            });
        }

        private void fail(Throwable cause) {
            if (!response.headWritten()) {
                rc.fail(cause);
                return;
            }
            LOG.warn(
                    "CSV export {} failed after its header was sent: {}",
                    rc.request().path(),
                    cause.toString());
            response.reset();
        }
    }

    /** Appends one record, RFC 4180: fields joined by commas, ended by CRLF. */
    static void line(Buffer out, String[] fields) {
        StringBuilder sb = new StringBuilder(128);
        for (int i = 0; i < fields.length; i++) {
            if (i > 0) sb.append(',');
            field(sb, fields[i]);
        }
        sb.append("\r\n");
        out.appendString(sb.toString(), "UTF-8");
    }

    /** One field: as it is, or quoted (inner quotes doubled) when it holds a quote, comma, CR or LF; null is empty. */
    static void field(StringBuilder sb, String v) {
        if (v == null) return;
        boolean quote = false;
        for (int i = 0; i < v.length() && !quote; i++) {
            char c = v.charAt(i);
            quote = c == '"' || c == ',' || c == '\r' || c == '\n';
        }
        if (!quote) {
            sb.append(v);
            return;
        }
        sb.append('"');
        for (int i = 0; i < v.length(); i++) {
            char c = v.charAt(i);
            if (c == '"') sb.append('"');
            sb.append(c);
        }
        sb.append('"');
    }
}
