package dev.weft.track;

import dev.weft.model.track.Hop;
import dev.weft.model.track.Transfer;
import java.util.List;

/**
 * The exact {@code tx_search} queries that find, once, an event a hop waits for when it may lie behind the chain's
 * scan cursor (CometBFT 0.38 queries: conditions joined by {@code AND}, exact-match attributes indexed by the node).
 * {@code since} is the block time from which the event can have happened (0: unknown); when the tracker knows the
 * chain's blocks from then on, one range search replaces the exact ones of every hop.
 */
final class CatchUps {
    private CatchUps() {}

    static List<TxObserver.CatchUp> hash(Transfer t) {
        return List.of(new TxObserver.CatchUp(t.chainId, "tx.hash='" + t.txHash + "'", 1, t.txHash, 0));
    }

    /** recv_packet and a later write_acknowledgement (PFM's) of a packet, on its destination. */
    static List<TxObserver.CatchUp> destination(Hop h, long since) {
        String key = "packet_dst_port='" + h.dstPort + "' AND %1$s.packet_dst_channel='" + h.dstChannel
                + "' AND %1$s.packet_sequence='" + h.sequence + "'";
        return List.of(
                new TxObserver.CatchUp(h.toChain, "recv_packet." + String.format(key, "recv_packet"), 10, null, since),
                new TxObserver.CatchUp(
                        h.toChain,
                        "write_acknowledgement." + String.format(key, "write_acknowledgement"),
                        10,
                        null,
                        since));
    }

    /** acknowledge_packet or timeout_packet of a packet, on its source. */
    static List<TxObserver.CatchUp> source(Hop h, long since) {
        String key = "packet_src_port='" + h.srcPort + "' AND %1$s.packet_src_channel='" + h.srcChannel
                + "' AND %1$s.packet_sequence='" + h.sequence + "'";
        return List.of(
                new TxObserver.CatchUp(
                        h.fromChain, "acknowledge_packet." + String.format(key, "acknowledge_packet"), 10, null, since),
                new TxObserver.CatchUp(
                        h.fromChain, "timeout_packet." + String.format(key, "timeout_packet"), 10, null, since));
    }

    static List<TxObserver.CatchUp> deposit(Hop h, long since) {
        return List.of(new TxObserver.CatchUp(
                h.toChain, "finalize_token_deposit.l1_sequence='" + h.opSequence + "'", 10, null, since));
    }

    /** The first output proposal covering a withdrawal's L2 height. */
    static List<TxObserver.CatchUp> withdrawal(Hop h, long since) {
        return List.of(new TxObserver.CatchUp(
                h.l1Chain(),
                "propose_output.bridge_id='" + h.bridgeId + "' AND propose_output.l2_block_number>="
                        + h.withdrawalHeight(),
                1,
                null,
                since));
    }
}
