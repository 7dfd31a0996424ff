package dev.weft.track;

import dev.weft.chain.Hex;
import dev.weft.model.track.ChainTx;
import dev.weft.model.track.Hop;
import dev.weft.model.track.ObservedTx;
import dev.weft.model.track.Transfer;
import dev.weft.route.registry.Denoms;
import dev.weft.route.registry.LayerZeroLane;
import dev.weft.route.registry.OpBridge;
import dev.weft.track.poll.EvmReceipts;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Objects;

/**
 * Applies a tx seen on a chain to the transfers waiting for it: the tracked tx itself (its {@code send_packet},
 * {@code initiate_token_deposit}, {@code initiate_token_withdrawal} and, on an EVM chain, a registered LayerZero lane's
 * {@code OFTSent} start one transfer each), {@code recv_packet}
 * with the {@code write_acknowledgement} or the PFM {@code send_packet} of the same message, a later
 * {@code write_acknowledgement} (PFM's asynchronous ack), {@code acknowledge_packet} and {@code timeout_packet} on the
 * sending chain, {@code finalize_token_deposit} on a rollup, {@code propose_output} on an L1 and a LayerZero
 * destination OFT's {@code OFTReceived}. Every transition is
 * idempotent, so a tx seen twice (a scan and a catch-up search) changes nothing the second time.
 */
final class TxObserver {
    /**
     * A search to run once because a hop's next event may already be behind the chain's scan cursor ({@code since}: the
     * block time from which it can have happened, 0 when unknown), or to find a newly tracked tx ({@code hash} set).
     */
    record CatchUp(String chainId, String query, int perPage, String hash, long since) {}

    /** Tells which transfers changed and what to search again. */
    interface Sink {
        void changed(Transfer t);

        /** Whether events on {@code chainId} at or after {@code timeNanos} may predate what the scans cover. */
        boolean behind(String chainId, long timeNanos);

        void catchUp(CatchUp c);
    }

    private final TrackChains chains;
    private final Watches watches;
    private final Sink sink;

    TxObserver(TrackChains chains, Watches watches, Sink sink) {
        this.chains = chains;
        this.watches = watches;
        this.sink = sink;
    }

    void apply(ObservedTx tx) {
        ChainTx ct = new ChainTx(tx.chainId(), tx.hash(), tx.height(), tx.timeNanos());
        Transfer tracked = watches.byHash(tx.chainId(), tx.hash());
        if (tracked != null && tracked.seen(ct, tx.code(), tx.log())) {
            if (tx.code() == 0) start(tracked, tx, ct);
            sink.changed(tracked);
        }
        List<ObservedTx.Event> events = tx.events();
        for (ObservedTx.Event e : events) {
            switch (e.type()) {
                case "recv_packet" -> recv(tx, ct, e);
                case "write_acknowledgement" -> writeAck(tx.chainId(), e);
                case "acknowledge_packet" -> acknowledge(tx, ct, e);
                case "timeout_packet" -> timeout(tx.chainId(), ct, e);
                case "finalize_token_deposit" -> finalizeDeposit(tx.chainId(), ct, e);
                case "propose_output" -> output(tx.chainId(), ct, e);
                case EvmReceipts.OFT_RECEIVED -> {
                    Hop h = watches.layerZero(tx.chainId(), e.get("guid"));
                    if (h != null
                            && chains.destinationOft(h.toChain, h.destDenom).equalsIgnoreCase(e.get("contract"))
                            && h.layerZeroReceived(ct)) {
                        sink.changed(watches.owner(h));
                    }
                }
                default -> {}
            }
        }
    }

    /** The transfers a tracked tx starts, one per sending event, in event order. */
    private void start(Transfer t, ObservedTx tx, ChainTx ct) {
        for (ObservedTx.Event e : tx.events()) {
            int flow = t.flowCount();
            switch (e.type()) {
                case "send_packet" -> addIbcHop(t, flow, 0, tx.chainId(), ct, e);
                case "initiate_token_deposit" -> {
                    OpBridge b = chains.bridgeOf(tx.chainId(), parseLong(e.get("bridge_id")));
                    if (b == null) continue;
                    Hop h = Hop.deposit(
                            flow,
                            tx.chainId(),
                            b.l2ChainId(),
                            b.bridgeId(),
                            parseLong(e.get("l1_sequence")),
                            e.get("l1_denom"),
                            e.get("l2_denom"),
                            e.get("amount"),
                            ct);
                    t.addHop(h);
                    if (sink.behind(h.toChain, ct.timeNanos()))
                        CatchUps.deposit(h, ct.timeNanos()).forEach(sink::catchUp);
                }
                case "initiate_token_withdrawal" -> {
                    OpBridge b = chains.bridge(tx.chainId());
                    if (b == null) continue;
                    Hop h = Hop.withdrawal(
                            flow,
                            tx.chainId(),
                            b.l1ChainId(),
                            b.bridgeId(),
                            parseLong(e.get("l2_sequence")),
                            e.get("denom"),
                            e.get("base_denom"),
                            e.get("amount"),
                            ct);
                    t.addHop(h);
                    if (sink.behind(h.toChain, ct.timeNanos()))
                        CatchUps.withdrawal(h, ct.timeNanos()).forEach(sink::catchUp);
                }
                case EvmReceipts.OFT_SENT -> {
                    LayerZeroLane lane = chains.lane(tx.chainId(), e.get("contract"));
                    if (lane == null || parseLong(e.get("dst_eid")) != lane.destinationEndpointId()) continue;
                    t.addHop(Hop.layerZero(
                            flow,
                            tx.chainId(),
                            lane.toChainId(),
                            lane.denomIn(),
                            lane.denomOut(),
                            e.get("amount_received"),
                            e.get("guid"),
                            ct));
                }
                default -> {}
            }
        }
    }

    /** An IBC hop from a {@code send_packet} event of a tx on {@code chain}. */
    private void addIbcHop(Transfer t, int flow, int index, String chain, ChainTx sent, ObservedTx.Event e) {
        String srcPort = e.get("packet_src_port");
        String srcChannel = e.get("packet_src_channel");
        String dstPort = e.get("packet_dst_port");
        String dstChannel = e.get("packet_dst_channel");
        String to = Objects.requireNonNullElse(chains.counterparty(chain, srcChannel), "");
        JsonObject data = packetData(e);
        String path = data.getString("denom", "");
        String destPath = path.startsWith(srcPort + "/" + srcChannel + "/")
                ? path.substring(srcPort.length() + srcChannel.length() + 2)
                : dstPort + "/" + dstChannel + "/" + path;
        Hop h = Hop.ibc(
                        flow,
                        index,
                        chain,
                        to,
                        srcPort,
                        srcChannel,
                        dstPort,
                        dstChannel,
                        parseLong(e.get("packet_sequence")),
                        parseUnsigned(e.get("packet_timeout_timestamp")),
                        Denoms.denomOfPath(path),
                        Denoms.denomOfPath(destPath),
                        data.getString("amount", ""),
                        sent)
                .expectingForwards(forwardDepth(data.getString("memo", "")));
        t.addHop(h);
        if (!to.isEmpty() && sink.behind(to, sent.timeNanos()))
            CatchUps.destination(h, sent.timeNanos()).forEach(sink::catchUp);
        if (sink.behind(chain, sent.timeNanos()))
            CatchUps.source(h, sent.timeNanos()).forEach(sink::catchUp);
    }

    private void recv(ObservedTx tx, ChainTx ct, ObservedTx.Event e) {
        Hop h = watches.byDestination(
                tx.chainId(),
                e.get("packet_dst_port") + "/" + e.get("packet_dst_channel") + "/" + e.get("packet_sequence"));
        if (h == null) return;
        Transfer t = watches.owner(h);
        boolean changed = h.received(ct);
        boolean hook = hookReceiver(e.get("packet_data"));
        ObservedTx.Event paidOut = null;
        for (ObservedTx.Event other : tx.events()) {
            if (!Objects.equals(other.msgIndex(), e.msgIndex())) continue;
            if (hook && other.type().equals("transfer")) paidOut = other;
            if (other.type().equals("write_acknowledgement") && sameDestination(other, e)) changed |= ack(h, other);
            if (other.type().equals("send_packet") && t.hop(h.flow, h.index + 1) == null) {
                addIbcHop(t, h.flow, h.index + 1, tx.chainId(), ct, other); // PFM forwards in the recv message
                changed = true;
            }
        }
        // a Move ibc-hooks swap on arrival: the coins go to the hook's intermediate account, which swaps them and pays
        // the recipient last; that last coin movement of the recv message, in another denom, is what was released
        if (paidOut != null) {
            String coin = paidOut.get("amount");
            int digits = 0;
            while (coin != null && digits < coin.length() && Character.isDigit(coin.charAt(digits))) digits++;
            if (digits > 0 && digits < coin.length() && !coin.substring(digits).equals(h.destDenom))
                changed |= h.swappedOnArrival(coin.substring(digits), coin.substring(0, digits));
        }
        if (changed) sink.changed(t);
    }

    /** Whether an ICS-20 packet's receiver is a Move ibc-hooks function ({@code <address>::<module>::<function>}). */
    static boolean hookReceiver(String packetData) {
        if (packetData == null) return false;
        try {
            String receiver = new JsonObject(packetData).getString("receiver", "");
            return receiver.indexOf("::") > 0;
        } catch (RuntimeException ex) {
            return false;
        }
    }

    private void writeAck(String chain, ObservedTx.Event e) {
        Hop h = watches.byDestination(
                chain, e.get("packet_dst_port") + "/" + e.get("packet_dst_channel") + "/" + e.get("packet_sequence"));
        if (h != null && ack(h, e)) sink.changed(watches.owner(h));
    }

    private static boolean ack(Hop h, ObservedTx.Event writeAck) {
        String ack = writeAck.get("packet_ack_hex") != null
                ? new String(Hex.decode(writeAck.get("packet_ack_hex")), StandardCharsets.UTF_8)
                : writeAck.get("packet_ack");
        String error = ackError(ack);
        return h.acknowledgementWritten(error == null, error);
    }

    /** The error of an error acknowledgement, null for a success ack. */
    static String ackError(String ack) {
        try {
            JsonObject o = new JsonObject(ack);
            if (o.containsKey("error")) return o.getString("error");
            return null;
        } catch (RuntimeException e) {
            return null; // not JSON: an application-specific success ack
        }
    }

    private void acknowledge(ObservedTx tx, ChainTx ct, ObservedTx.Event e) {
        Hop h = watches.bySource(
                tx.chainId(),
                e.get("packet_src_port") + "/" + e.get("packet_src_channel") + "/" + e.get("packet_sequence"));
        if (h == null) return;
        String error = null;
        for (ObservedTx.Event other : tx.events()) {
            if (Objects.equals(other.msgIndex(), e.msgIndex())
                    && other.type().equals("fungible_token_packet")
                    && other.get("error") != null) {
                error = other.get("error");
            }
        }
        if (h.acknowledged(ct, error == null, error)) sink.changed(watches.owner(h));
    }

    private void timeout(String chain, ChainTx ct, ObservedTx.Event e) {
        Hop h = watches.bySource(
                chain, e.get("packet_src_port") + "/" + e.get("packet_src_channel") + "/" + e.get("packet_sequence"));
        if (h != null && h.timedOut(ct)) sink.changed(watches.owner(h));
    }

    private void finalizeDeposit(String chain, ChainTx ct, ObservedTx.Event e) {
        Hop h = watches.deposit(chain, parseLong(e.get("l1_sequence")));
        if (h == null || !h.finalized(ct, !"false".equals(e.get("success")), e.get("reason"))) return;
        // a failed deposit is refunded by a withdrawal OPinit starts in this same tx: followed until claimable on the
        // L1
        if (h.refundStarted(ct.height()) && sink.behind(h.l1Chain(), ct.timeNanos())) {
            CatchUps.withdrawal(h, ct.timeNanos()).forEach(sink::catchUp);
        }
        sink.changed(watches.owner(h));
    }

    private void output(String chain, ChainTx ct, ObservedTx.Event e) {
        long bridge = parseLong(e.get("bridge_id"));
        OpBridge b = chains.bridgeOf(chain, bridge);
        if (b == null) return;
        long covered = parseLong(e.get("l2_block_number"));
        for (Hop h : watches.withdrawals(chain, bridge)) {
            if (h.outputProposed(ct, covered, b.finalizationPeriod().toNanos())) sink.changed(watches.owner(h));
        }
    }

    /** How many hops a packet-forward memo asks for ({@code forward} nested through {@code next}); 0 for any other memo. */
    static int forwardDepth(String memo) {
        int depth = 0;
        Object cur = memo;
        while (depth < 16) {
            JsonObject o;
            try {
                o = cur instanceof JsonObject j
                        ? j
                        : cur instanceof String s && s.trim().startsWith("{") ? new JsonObject(s) : null;
            } catch (RuntimeException e) {
                o = null;
            }
            if (o == null || !(o.getValue("forward") instanceof JsonObject forward)) break;
            depth++;
            cur = forward.getValue("next");
        }
        return depth;
    }

    private static boolean sameDestination(ObservedTx.Event a, ObservedTx.Event b) {
        return Objects.equals(a.get("packet_dst_channel"), b.get("packet_dst_channel"))
                && Objects.equals(a.get("packet_sequence"), b.get("packet_sequence"));
    }

    private static JsonObject packetData(ObservedTx.Event e) {
        String hex = e.get("packet_data_hex");
        String text = hex != null ? new String(Hex.decode(hex), StandardCharsets.UTF_8) : e.get("packet_data");
        try {
            return text == null ? new JsonObject() : new JsonObject(text);
        } catch (RuntimeException ex) {
            return new JsonObject();
        }
    }

    static long parseLong(String s) {
        try {
            return s == null ? 0 : Long.parseLong(s.trim());
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    private static long parseUnsigned(String s) {
        try {
            return s == null ? 0 : Long.parseUnsignedLong(s.trim());
        } catch (NumberFormatException e) {
            return 0;
        }
    }
}
