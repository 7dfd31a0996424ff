package dev.weft.api;

import dev.weft.bus.BusError;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelPipeline;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.util.ReferenceCountUtil;

/**
 * A request line with a version other than HTTP/1.0 or 1.1 ({@code GET / HTTP/1.2}, the HTTP/2 prior-knowledge
 * preface {@code PRI * HTTP/2.0}) gets a JSON 505 and the connection closes. Vert.x itself would answer such a request
 * with an empty 501 before any handler of ours sees it. Sits right after the HTTP decoder; whatever the connection
 * sends after the refused request is dropped.
 */
final class HttpVersionGuard extends ChannelInboundHandlerAdapter {
    private boolean refused;

    private HttpVersionGuard() {}

    /** Installs the guard on an HTTP/1.x server connection's pipeline (a no-op for a pipeline without the decoder). */
    static void install(ChannelPipeline pipeline) {
        if (pipeline.get(RequestDeadline.DECODER) == null) return;
        pipeline.addAfter(RequestDeadline.DECODER, "weft-http-version", new HttpVersionGuard());
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (refused) {
            ReferenceCountUtil.release(msg);
            return;
        }
        if (msg instanceof HttpRequest req && !supported(req.protocolVersion())) {
            refused = true;
            ReferenceCountUtil.release(msg);
            RawResponse.sendAndClose(
                    ctx,
                    new BusError(505, req.protocolVersion().text() + " is not supported: this server speaks HTTP/1.1"));
            return;
        }
        ctx.fireChannelRead(msg);
    }

    private static boolean supported(HttpVersion v) {
        return "HTTP".equals(v.protocolName())
                && v.majorVersion() == 1
                && (v.minorVersion() == 0 || v.minorVersion() == 1);
    }
}
