package dev.weft.api;

import dev.weft.bus.BusError;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http.HttpResponseStatus;
import java.nio.charset.StandardCharsets;

/**
 * An error answer written straight to a connection's socket and followed by a close, for the cases the server decides
 * before any request reached the router (a request too slow to arrive, a client over its connection cap). The body is
 * the API's JSON error body.
 */
final class RawResponse {
    private RawResponse() {}

    static void sendAndClose(ChannelHandlerContext ctx, BusError error) {
        ctx.writeAndFlush(bytes(error)).addListener(ChannelFutureListener.CLOSE);
    }

    static ByteBuf bytes(BusError error) {
        byte[] body = error.toJson().encode().getBytes(StandardCharsets.UTF_8);
        String head = "HTTP/1.1 " + HttpResponseStatus.valueOf(error.httpStatus()) + "\r\n"
                + "content-type: application/json\r\n"
                + "content-length: " + body.length + "\r\n"
                + "connection: close\r\n\r\n";
        byte[] h = head.getBytes(StandardCharsets.US_ASCII);
        return Unpooled.wrappedBuffer(h, body);
    }
}
