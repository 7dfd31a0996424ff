package dev.weft.devnet.ibc;

import dev.weft.devnet.tx.MsgTypes;
import dev.weft.devnet.tx.SystemSigner;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A simulated relayer for every channel between the devnet's chains. A packet sent at time t is delivered
 * ({@code MsgRecvPacket}) in the destination's first block at or after t + {@code delay}; an acknowledgement written at
 * t is delivered back ({@code MsgAcknowledgement}) the same way. A packet the destination can no longer receive (its
 * block time or height reached the packet's timeout) is timed out on its source ({@code MsgTimeout}) after the delay;
 * packets to a "timeout receiver" of the {@link FailureRules} are never delivered, so they end that way. Messages due
 * on a chain in the same block are batched, at most {@link #BATCH} per tx, as relayers do.
 */
public final class Relayer implements IbcListener {
    static final int BATCH = 30;
    private static final byte[] PROOF = new byte[] {0x0a, 0x20};

    private enum Kind {
        RECV,
        ACK,
        TIMEOUT
    }

    private record Job(Kind kind, Packet packet, byte[] ack, long notBefore, boolean blocked) {}

    private final long delayNanos;
    private final FailureRules rules;
    private final Map<String, IbcChain> chains = new LinkedHashMap<>();
    private final Map<String, SystemSigner> signers = new LinkedHashMap<>();
    private final Map<String, List<Job>> jobs = new LinkedHashMap<>();

    public Relayer(Duration delay, FailureRules rules) {
        this.delayNanos = delay.toNanos();
        this.rules = rules;
    }

    public void add(IbcChain chain, SystemSigner signer) {
        chains.put(chain.chainId(), chain);
        signers.put(chain.chainId(), signer);
        jobs.put(chain.chainId(), new ArrayList<>());
    }

    @Override
    public void packetSent(String chainId, Packet p, long timeNanos) {
        ChannelEnd c = chains.get(chainId).channel(p.sourceChannel());
        List<Job> target = jobs.get(c.counterpartyChainId());
        if (target == null) return; // the counterparty is not running: nobody relays
        boolean blocked;
        try {
            blocked = rules.timesOut(PacketData.parse(p.data()).receiver());
        } catch (IllegalArgumentException e) {
            blocked = false;
        }
        target.add(new Job(Kind.RECV, p, null, timeNanos + delayNanos, blocked));
    }

    @Override
    public void ackWritten(String chainId, Packet p, byte[] ack, long timeNanos) {
        ChannelEnd c = chains.get(chainId).channel(p.destinationChannel());
        List<Job> target = jobs.get(c.counterpartyChainId());
        if (target != null) target.add(new Job(Kind.ACK, p, ack, timeNanos + delayNanos, false));
    }

    /** Packets waiting to be received, acknowledged or timed out, over all chains (for tests and the banner). */
    public int inFlight() {
        return jobs.values().stream().mapToInt(List::size).sum();
    }

    /** The relayer's txs for the block of {@code chainId} at {@code height} and {@code timeNanos}. */
    public List<byte[]> due(String chainId, long height, long timeNanos) {
        List<Job> list = jobs.get(chainId);
        if (list == null || list.isEmpty()) return List.of();
        List<SystemSigner.Message> msgs = new ArrayList<>();
        String signer = signers.get(chainId).address();
        for (Iterator<Job> it = list.iterator(); it.hasNext(); ) {
            Job j = it.next();
            if (j.kind() == Kind.RECV && j.packet().timedOut(height, timeNanos)) {
                it.remove();
                String source = chains.get(chainId)
                        .channel(j.packet().destinationChannel())
                        .counterpartyChainId();
                jobs.get(source).add(new Job(Kind.TIMEOUT, j.packet(), null, timeNanos + delayNanos, false));
                continue;
            }
            if (j.blocked() || j.notBefore() > timeNanos) continue;
            it.remove();
            msgs.add(message(j, signer, height));
        }
        List<byte[]> txs = new ArrayList<>();
        for (int i = 0; i < msgs.size(); i += BATCH)
            txs.add(signers.get(chainId).sign(msgs.subList(i, Math.min(msgs.size(), i + BATCH))));
        return txs;
    }

    private static SystemSigner.Message message(Job j, String signer, long height) {
        JsonObject proofHeight = new JsonObject()
                .put("revision_number", "0")
                .put("revision_height", Long.toString(Math.max(1, height - 1)));
        String proof = Base64.getEncoder().encodeToString(PROOF);
        JsonObject packet = j.packet().toJson();
        return switch (j.kind()) {
            case RECV ->
                new SystemSigner.Message(
                        MsgTypes.RECV_PACKET,
                        new JsonObject()
                                .put("packet", packet)
                                .put("proof_commitment", proof)
                                .put("proof_height", proofHeight)
                                .put("signer", signer));
            case ACK ->
                new SystemSigner.Message(
                        MsgTypes.ACKNOWLEDGEMENT,
                        new JsonObject()
                                .put("packet", packet)
                                .put("acknowledgement", Base64.getEncoder().encodeToString(j.ack()))
                                .put("proof_acked", proof)
                                .put("proof_height", proofHeight)
                                .put("signer", signer));
            case TIMEOUT ->
                new SystemSigner.Message(
                        MsgTypes.TIMEOUT,
                        new JsonObject()
                                .put("packet", packet)
                                .put("proof_unreceived", proof)
                                .put("proof_height", proofHeight)
                                .put(
                                        "next_sequence_recv",
                                        Long.toString(j.packet().sequence()))
                                .put("signer", signer));
        };
    }
}
