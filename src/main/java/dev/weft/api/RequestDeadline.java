package dev.weft.api;

import dev.weft.bus.BusError;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.ChannelPromise;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * The request-read timeout Vert.x does not have: from the first byte of a request, its line, headers and body must all
 * arrive within the deadline, else the client gets a 408 and the connection closes (a slowloris client that trickles a
 * request line holds nothing for long). Two Netty handlers share the state: one at the head of the pipeline sees the
 * raw bytes (a request starts) and the response bytes (the server answered early), one after the HTTP decoder sees
 * the end of each request. An upgraded connection (WebSocket) is left to the idle timeout.
 */
final class RequestDeadline {
    static final String DECODER = "httpDecoder";

    private final long timeoutMillis;
    private ChannelHandlerContext head;
    private ScheduledFuture<?> timer;
    private boolean reading;
    private boolean responding;
    private boolean upgraded;

    private RequestDeadline(long timeoutMillis) {
        this.timeoutMillis = timeoutMillis;
    }

    /** Installs the deadline on an HTTP/1.x server connection's pipeline (a no-op for a pipeline without the decoder). */
    static void install(ChannelPipeline pipeline, long timeoutMillis) {
        if (pipeline.get(DECODER) == null) return;
        RequestDeadline d = new RequestDeadline(timeoutMillis);
        pipeline.addFirst("weft-request-start", d.new Start());
        pipeline.addAfter(DECODER, "weft-request-end", d.new End());
    }

    private void started() {
        if (reading || upgraded) return;
        reading = true;
        responding = false;
        timer = head.executor().schedule(this::expired, timeoutMillis, TimeUnit.MILLISECONDS);
    }

    private void finished() {
        reading = false;
        if (timer != null) timer.cancel(false);
        timer = null;
    }

    private void expired() {
        timer = null;
        if (!reading || upgraded || !head.channel().isActive()) return;
        if (responding) {
            head.close();
        } else {
            RawResponse.sendAndClose(
                    head, new BusError(408, "the request did not arrive within " + timeoutMillis + " ms"));
        }
    }

    private final class Start extends ChannelDuplexHandler {
        @Override
        public void handlerAdded(ChannelHandlerContext ctx) {
            head = ctx;
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            started();
            ctx.fireChannelRead(msg);
        }

        @Override
        public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) throws Exception {
            responding = true;
            super.write(ctx, msg, promise);
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            finished();
            ctx.fireChannelInactive();
        }
    }

    private final class End extends ChannelInboundHandlerAdapter {
        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            if (msg instanceof HttpRequest req
                    && req.headers().containsValue(HttpHeaderNames.UPGRADE, "websocket", true)) {
                upgraded = true;
                finished();
            }
            if (msg instanceof LastHttpContent) finished();
            ctx.fireChannelRead(msg);
        }
    }
}
