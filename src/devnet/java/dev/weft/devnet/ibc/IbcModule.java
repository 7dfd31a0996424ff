package dev.weft.devnet.ibc;

import dev.weft.chain.proto.ProtoWriter;
import dev.weft.devnet.exec.EventLog;
import dev.weft.devnet.exec.ExecError;
import dev.weft.devnet.exec.IbcAddresses;
import dev.weft.devnet.exec.MsgContext;
import dev.weft.devnet.exec.MsgModule;
import dev.weft.devnet.tx.MsgTypes;
import io.vertx.core.json.JsonObject;
import java.math.BigInteger;
import java.util.Base64;
import java.util.List;
import java.util.function.Predicate;

/**
 * ICS-20 transfers with the packet-forward middleware, as ibc-go v8 runs them: {@code MsgTransfer} sends a packet;
 * the relayer's {@code MsgRecvPacket} credits the receiver and writes the acknowledgement (success, or an error ack
 * for a refused receiver), or, with a {@code forward} memo on a PFM chain, sends the tokens on in the same message and
 * acknowledges upstream only when the downstream packet is acknowledged or times out; {@code MsgAcknowledgement} and
 * {@code MsgTimeout} settle a packet on its source (refunding on an error ack or a timeout). PFM's retries on timeout
 * are not modelled: a timed-out forward fails at once. On a chain with Move ibc-hooks ({@link MoveHooks}) a packet
 * whose memo calls a Move function runs it on arrival.
 */
public final class IbcModule implements MsgModule {
    /** ResponseResultType SUCCESS of the channel messages' responses. */
    private static final int RESULT_SUCCESS = 2;

    private static final int CODE_UNAUTHORIZED = 4;
    private static final int CODE_INVALID_ADDRESS = 7;
    private static final int CODE_INTERNAL = 1;

    private final IbcChain chain;
    private final FailureRules rules;
    private final IbcListener listener;
    private final Predicate<String> validAddress;
    private final MoveHooks hooks;

    /**
     * @param validAddress whether a receiver is an account of this chain
     * @param hooks        the chain's Move ibc-hooks, or null when it runs none
     */
    public IbcModule(
            IbcChain chain, FailureRules rules, IbcListener listener, Predicate<String> validAddress, MoveHooks hooks) {
        this.chain = chain;
        this.rules = rules;
        this.listener = listener;
        this.validAddress = validAddress;
        this.hooks = hooks;
    }

    @Override
    public List<String> types() {
        return List.of(MsgTypes.TRANSFER, MsgTypes.RECV_PACKET, MsgTypes.ACKNOWLEDGEMENT, MsgTypes.TIMEOUT);
    }

    @Override
    public long gas(String typeUrl) {
        return typeUrl.equals(MsgTypes.RECV_PACKET) ? 130_000 : 95_000;
    }

    @Override
    public void check(MsgContext ctx, String typeUrl, JsonObject msg) {
        switch (typeUrl) {
            case MsgTypes.TRANSFER -> checkTransfer(ctx, msg);
            case MsgTypes.RECV_PACKET -> {
                Packet p = Packet.fromJson(msg.getJsonObject("packet"));
                ChannelEnd c = chain.requireChannel(p.destinationPort(), p.destinationChannel());
                if (c.wasReceived(p.sequence()))
                    throw new ExecError(
                            "channel",
                            29,
                            "packet sequence " + p.sequence() + " already received: packet messages are redundant");
                if (p.timedOut(ctx.height(), ctx.timeNanos())) {
                    throw new ExecError(
                            "channel",
                            12,
                            "block timestamp >= packet timeout timestamp (" + ctx.timeNanos() + " >= "
                                    + Long.toUnsignedString(p.timeoutTimestamp()) + "): packet timeout");
                }
            }
            case MsgTypes.ACKNOWLEDGEMENT, MsgTypes.TIMEOUT -> {
                Packet p = Packet.fromJson(msg.getJsonObject("packet"));
                chain.requireChannel(p.sourcePort(), p.sourceChannel());
            }
            default -> throw new IllegalArgumentException(typeUrl);
        }
    }

    private void checkTransfer(MsgContext ctx, JsonObject msg) {
        chain.requireChannel(msg.getString("source_port"), msg.getString("source_channel"));
        JsonObject token = msg.getJsonObject("token");
        String amount = token.getString("amount");
        if (!amount.matches("\\d{1,78}") || new BigInteger(amount).signum() <= 0)
            throw ExecError.invalidCoins("invalid token amount " + amount);
        chain.fullPath(token.getString("denom"));
        String receiver = msg.getString("receiver");
        if (receiver.isBlank()) throw ExecError.invalidAddress("missing recipient address");
        if (receiver.length() > 2048) throw ExecError.invalidAddress("recipient address must not exceed 2048 bytes");
        long height = Long.parseUnsignedLong(msg.getJsonObject("timeout_height").getString("revision_height"));
        long timestamp = Long.parseUnsignedLong(msg.getString("timeout_timestamp"));
        if (height == 0 && timestamp == 0)
            throw new ExecError(
                    "channel",
                    10,
                    "packet timeout height and packet timeout timestamp cannot both be 0: invalid packet");
        if (timestamp != 0 && Long.compareUnsigned(ctx.timeNanos(), timestamp) >= 0) {
            throw new ExecError(
                    "channel",
                    12,
                    "invalid packet timeout: current timestamp: " + ctx.timeNanos() + ", timeout timestamp " + timestamp
                            + ": packet timeout");
        }
    }

    @Override
    public byte[] execute(MsgContext ctx, String typeUrl, JsonObject msg, EventLog log) {
        return switch (typeUrl) {
            case MsgTypes.TRANSFER -> transfer(ctx, msg, log);
            case MsgTypes.RECV_PACKET -> recv(ctx, Packet.fromJson(msg.getJsonObject("packet")), log);
            case MsgTypes.ACKNOWLEDGEMENT ->
                acknowledge(
                        ctx,
                        Packet.fromJson(msg.getJsonObject("packet")),
                        Base64.getDecoder().decode(msg.getString("acknowledgement")),
                        log);
            case MsgTypes.TIMEOUT -> timeout(ctx, Packet.fromJson(msg.getJsonObject("packet")), log);
            default -> throw new IllegalArgumentException(typeUrl);
        };
    }

    private byte[] transfer(MsgContext ctx, JsonObject msg, EventLog log) {
        ChannelEnd c = chain.channel(msg.getString("source_channel"));
        JsonObject token = msg.getJsonObject("token");
        Packet p = chain.send(
                log,
                c,
                msg.getString("sender"),
                msg.getString("receiver"),
                token.getString("denom"),
                token.getString("amount"),
                msg.getString("memo"),
                Long.parseUnsignedLong(msg.getJsonObject("timeout_height").getString("revision_height")),
                Long.parseUnsignedLong(msg.getString("timeout_timestamp")));
        listener.packetSent(chain.chainId(), p, ctx.timeNanos());
        return new ProtoWriter().varint(1, p.sequence()).toByteArray();
    }

    private byte[] recv(MsgContext ctx, Packet p, EventLog log) {
        ChannelEnd c = chain.channel(p.destinationChannel());
        c.receive(p.sequence());
        PacketEvents.recv(log, p, c.connectionId());
        PacketData d;
        try {
            d = PacketData.parse(p.data());
        } catch (IllegalArgumentException e) {
            return fail(ctx, log, p, c, null, CODE_INTERNAL, e.getMessage());
        }
        ForwardMemo forward;
        try {
            forward = chain.pfm() ? ForwardMemo.parse(d.memo()) : null;
        } catch (IllegalArgumentException e) {
            return fail(ctx, log, p, c, d, CODE_INTERNAL, e.getMessage());
        }
        if (forward == null && hooks != null) {
            MoveHooks.Call call;
            try {
                call = MoveHooks.parse(d.memo());
            } catch (IllegalArgumentException e) {
                return failHook(ctx, log, p, c, d, e.getMessage());
            }
            if (call != null) return recvHook(ctx, log, p, c, d, call);
        }
        if (forward == null && !validAddress.test(d.receiver())) {
            return fail(
                    ctx,
                    log,
                    p,
                    c,
                    d,
                    CODE_INVALID_ADDRESS,
                    "failed to decode receiver address: " + d.receiver() + ": invalid address");
        }
        if (rules.fails(d.receiver())) {
            return fail(
                    ctx,
                    log,
                    p,
                    c,
                    d,
                    CODE_UNAUTHORIZED,
                    d.receiver() + " is not allowed to receive funds: unauthorized");
        }
        IbcChain.Credit credit = chain.credit(p, d);
        if (forward != null) {
            ChannelEnd next = chain.channel(forward.channel());
            if (next == null || !next.port().equals(forward.port())) {
                return fail(
                        ctx,
                        log,
                        p,
                        c,
                        d,
                        CODE_INTERNAL,
                        "failed to forward transfer packet: port ID (" + forward.port() + ") channel ID ("
                                + forward.channel() + "): channel not found");
            }
            String holder = IbcAddresses.pfmReceiver(p.destinationChannel(), d.sender(), chain.prefix());
            chain.receive(log, p, credit, holder, d.amount());
            tokenPacketEvent(log, d, holder, null);
            Packet down = chain.send(
                    log,
                    next,
                    holder,
                    forward.receiver(),
                    credit.denom(),
                    d.amount(),
                    forward.next(),
                    0,
                    ctx.timeNanos() + forward.timeout().toNanos());
            chain.remember(
                    down,
                    new IbcChain.Forward(p, c.connectionId(), holder, credit.denom(), d.amount(), credit.minted()));
            listener.packetSent(chain.chainId(), down, ctx.timeNanos());
            return recvResponse();
        }
        chain.receive(log, p, credit, d.receiver(), d.amount());
        tokenPacketEvent(log, d, d.receiver(), null);
        byte[] ack = Acks.success();
        PacketEvents.writeAck(log, p, ack, c.connectionId());
        listener.ackWritten(chain.chainId(), p, ack, ctx.timeNanos());
        return recvResponse();
    }

    /**
     * A packet for the Move hooks: checked (ACL, receiver, the call itself against the current state), then the coins go
     * to the sender's intermediate account, which runs the call; any failure is the hooks' error acknowledgement and the
     * receipt changes nothing.
     */
    private byte[] recvHook(MsgContext ctx, EventLog log, Packet p, ChannelEnd c, PacketData d, MoveHooks.Call call) {
        if (!hooks.allowed(call.moduleAddress())) {
            return failHook(
                    ctx,
                    log,
                    p,
                    c,
                    d,
                    "modules deployed by `" + call.moduleAddress() + "` are not allowed to be used in ibchooks");
        }
        if (!MoveHooks.receiverMatches(call, d.receiver(), chain.prefix())) {
            return failHook(ctx, log, p, c, d, "receiver is not properly set: invalid packet");
        }
        String intermediate = IbcAddresses.moveHookIntermediary(p.destinationChannel(), d.sender(), chain.prefix());
        JsonObject msg = call.message().put("sender", intermediate);
        try {
            hooks.check(ctx, msg);
        } catch (ExecError e) {
            return failHook(ctx, log, p, c, d, e.getMessage());
        }
        IbcChain.Credit credit = chain.credit(p, d);
        chain.receive(log, p, credit, intermediate, d.amount());
        tokenPacketEvent(log, d, intermediate, null);
        hooks.execute(ctx, msg, log);
        byte[] ack = Acks.success();
        PacketEvents.writeAck(log, p, ack, c.connectionId());
        listener.ackWritten(chain.chainId(), p, ack, ctx.timeNanos());
        return recvResponse();
    }

    private byte[] failHook(MsgContext ctx, EventLog log, Packet p, ChannelEnd c, PacketData d, String error) {
        return fail(ctx, log, p, c, d, error, Acks.moveHookError(error));
    }

    /** A receipt the app refuses: its events under {@code ibccallbackerror-}, then the error acknowledgement. */
    private byte[] fail(MsgContext ctx, EventLog log, Packet p, ChannelEnd c, PacketData d, int code, String error) {
        return fail(ctx, log, p, c, d, error, Acks.error(code));
    }

    private byte[] fail(MsgContext ctx, EventLog log, Packet p, ChannelEnd c, PacketData d, String error, byte[] ack) {
        if (d != null) {
            EventLog failed = new EventLog(ctx.msgIndex());
            tokenPacketEvent(failed, d, d.receiver(), error);
            for (var e : failed.events()) log.add("ibccallbackerror-" + e.type(), attributes(e));
        }
        PacketEvents.writeAck(log, p, ack, c.connectionId());
        listener.ackWritten(chain.chainId(), p, ack, ctx.timeNanos());
        return recvResponse();
    }

    private static String[] attributes(dev.weft.devnet.gen.Event e) {
        List<dev.weft.devnet.gen.Event.Attr> attrs = e.attributes().stream()
                .filter(a -> !a.key().equals("msg_index"))
                .toList();
        String[] kv = new String[attrs.size() * 2];
        for (int i = 0; i < attrs.size(); i++) {
            kv[2 * i] = attrs.get(i).key();
            kv[2 * i + 1] = attrs.get(i).value();
        }
        return kv;
    }

    private static void tokenPacketEvent(EventLog log, PacketData d, String receiver, String error) {
        if (error == null) {
            log.add(
                    "fungible_token_packet",
                    "module",
                    "transfer",
                    "sender",
                    d.sender(),
                    "receiver",
                    receiver,
                    "denom",
                    d.denom(),
                    "amount",
                    d.amount(),
                    "memo",
                    d.memo(),
                    "success",
                    "true");
        } else {
            log.add(
                    "fungible_token_packet",
                    "module",
                    "transfer",
                    "sender",
                    d.sender(),
                    "receiver",
                    receiver,
                    "denom",
                    d.denom(),
                    "amount",
                    d.amount(),
                    "memo",
                    d.memo(),
                    "success",
                    "false",
                    "error",
                    error);
        }
    }

    private byte[] acknowledge(MsgContext ctx, Packet p, byte[] ack, EventLog log) {
        ChannelEnd c = chain.channel(p.sourceChannel());
        PacketEvents.acknowledge(log, p, c.connectionId());
        PacketData d = PacketData.parse(p.data());
        log.add(
                "fungible_token_packet",
                "module",
                "transfer",
                "sender",
                d.sender(),
                "receiver",
                d.receiver(),
                "denom",
                d.denom(),
                "amount",
                d.amount(),
                "memo",
                d.memo(),
                "acknowledgement",
                Acks.protoText(ack));
        boolean ok = Acks.isSuccess(ack);
        if (ok) log.add("fungible_token_packet", "success", "\u0001");
        else log.add("fungible_token_packet", "error", String.valueOf(Acks.errorText(ack)));
        if (!ok) chain.refund(log, p, d);
        settleForward(ctx, p, ok, log);
        return new ProtoWriter().varint(1, RESULT_SUCCESS).toByteArray();
    }

    private byte[] timeout(MsgContext ctx, Packet p, EventLog log) {
        ChannelEnd c = chain.channel(p.sourceChannel());
        PacketEvents.timeout(log, p, c.connectionId());
        PacketData d = PacketData.parse(p.data());
        chain.refund(log, p, d);
        log.add(
                "timeout",
                "module",
                "transfer",
                "refund_receiver",
                d.sender(),
                "refund_denom",
                d.denom(),
                "refund_amount",
                d.amount(),
                "memo",
                d.memo());
        settleForward(ctx, p, false, log);
        return new ProtoWriter().varint(1, RESULT_SUCCESS).toByteArray();
    }

    /** When a settled packet was a forward, acknowledges the upstream packet (reverting the receipt on failure). */
    private void settleForward(MsgContext ctx, Packet downstream, boolean ok, EventLog log) {
        IbcChain.Forward f = chain.settle(downstream);
        if (f == null) return;
        byte[] ack;
        if (ok) {
            ack = Acks.success();
        } else {
            chain.revertReceive(log, f);
            ack = Acks.error(CODE_INTERNAL);
        }
        PacketEvents.writeAck(log, f.upstream(), ack, f.upstreamConnection());
        listener.ackWritten(chain.chainId(), f.upstream(), ack, ctx.timeNanos());
    }

    private static byte[] recvResponse() {
        return new ProtoWriter().varint(1, RESULT_SUCCESS).toByteArray();
    }
}
