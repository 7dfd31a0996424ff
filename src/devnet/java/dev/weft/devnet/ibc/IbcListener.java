package dev.weft.devnet.ibc;

/** What the relayer learns from a chain's executed txs: packets sent and acknowledgements written. */
public interface IbcListener {
    void packetSent(String chainId, Packet packet, long timeNanos);

    void ackWritten(String chainId, Packet packet, byte[] ack, long timeNanos);
}
