package dev.weft.devnet.ibc;

import java.util.HashSet;
import java.util.Set;

/**
 * One end of an ICS-20 transfer channel on a chain: its counterparty, its connection, the next send sequence and the
 * sequences received so far (an unordered channel receives each packet once).
 */
public final class ChannelEnd {
    private final String port;
    private final String channelId;
    private final String counterpartyChainId;
    private final String counterpartyChannelId;
    private final String connectionId;
    private long nextSequenceSend = 1;
    private final Set<Long> received = new HashSet<>();

    ChannelEnd(
            String port,
            String channelId,
            String counterpartyChainId,
            String counterpartyChannelId,
            String connectionId) {
        this.port = port;
        this.channelId = channelId;
        this.counterpartyChainId = counterpartyChainId;
        this.counterpartyChannelId = counterpartyChannelId;
        this.connectionId = connectionId;
    }

    public String port() {
        return port;
    }

    public String channelId() {
        return channelId;
    }

    public String counterpartyChainId() {
        return counterpartyChainId;
    }

    public String counterpartyChannelId() {
        return counterpartyChannelId;
    }

    public String connectionId() {
        return connectionId;
    }

    long takeSequence() {
        return nextSequenceSend++;
    }

    /** Records a receipt; false when that sequence was already received. */
    boolean receive(long sequence) {
        return received.add(sequence);
    }

    boolean wasReceived(long sequence) {
        return received.contains(sequence);
    }
}
