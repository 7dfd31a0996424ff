package dev.weft.bus;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;

/**
 * Reads the TCP bridge's framing (a 4-byte big-endian length, then that many bytes) as the bytes pass, and closes the
 * connection as soon as a header announces more than the limit: the bridge's own parser would buffer whatever length
 * a header announces. Passes every byte on unchanged.
 */
final class FrameLimit extends ChannelInboundHandlerAdapter {
    private final int maxFrameBytes;
    private final byte[] header = new byte[4];
    private int headerRead;
    private long bodyLeft;

    FrameLimit(int maxFrameBytes) {
        this.maxFrameBytes = maxFrameBytes;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (msg instanceof ByteBuf buf && !withinLimit(buf)) {
            buf.release();
            ctx.close();
            return;
        }
        ctx.fireChannelRead(msg);
    }

    private boolean withinLimit(ByteBuf buf) {
        int i = buf.readerIndex();
        int end = buf.writerIndex();
        while (i < end) {
            if (bodyLeft > 0) {
                int n = (int) Math.min(bodyLeft, end - i);
                bodyLeft -= n;
                i += n;
                continue;
            }
            header[headerRead++] = buf.getByte(i++);
            if (headerRead == 4) {
                headerRead = 0;
                long length = ((header[0] & 0xffL) << 24)
                        | ((header[1] & 0xff) << 16)
                        | ((header[2] & 0xff) << 8)
                        | (header[3] & 0xff);
                if (length > maxFrameBytes) return false;
                bodyLeft = length;
            }
        }
        return true;
    }
}
