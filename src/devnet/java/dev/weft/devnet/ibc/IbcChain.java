package dev.weft.devnet.ibc;

import dev.weft.devnet.exec.Bank;
import dev.weft.devnet.exec.EventLog;
import dev.weft.devnet.exec.ExecError;
import dev.weft.devnet.exec.IbcAddresses;
import dev.weft.devnet.registry.ChainDenoms;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The ICS-20 state of one chain: its channel ends, the denom traces of the vouchers it knows, and the packets the
 * packet-forward middleware forwarded and still owes an acknowledgement for. Token movements follow ibc-go: a token
 * leaving over a channel it did not arrive on is escrowed (and unescrowed when it comes back), a voucher going home is
 * burned (and minted again on a refund).
 */
public final class IbcChain {
    private final String chainId;
    private final String prefix;
    private final boolean pfm;
    private final String transferModule;
    private final Map<String, ChannelEnd> channels = new LinkedHashMap<>();
    private final Map<String, String> traces = new HashMap<>();
    private final Map<String, Forward> forwards = new HashMap<>();

    /**
     * A packet this chain forwarded for the middleware: the upstream packet it must acknowledge once the downstream
     * one is, the coins the forwarder held, and whether the upstream receipt minted vouchers (else it unescrowed).
     */
    record Forward(
            Packet upstream,
            String upstreamConnection,
            String holder,
            String denom,
            String amount,
            boolean upstreamMinted) {}

    public IbcChain(String chainId, String prefix, boolean pfm) {
        this.chainId = chainId;
        this.prefix = prefix;
        this.pfm = pfm;
        this.transferModule = IbcAddresses.module("transfer", prefix);
    }

    public String chainId() {
        return chainId;
    }

    public String prefix() {
        return prefix;
    }

    boolean pfm() {
        return pfm;
    }

    public void addChannel(String port, String channelId, String counterpartyChain, String counterpartyChannel) {
        channels.put(
                channelId,
                new ChannelEnd(
                        port, channelId, counterpartyChain, counterpartyChannel, "connection-" + channels.size()));
    }

    /** Registers the trace of an {@code ibc/} denom (from the registry, or when a voucher is first minted). */
    public void addTrace(String path) {
        if (ChainDenoms.startsWithHop(path)) traces.put(ChainDenoms.ibcVoucher(path), path);
    }

    public ChannelEnd channel(String channelId) {
        return channels.get(channelId);
    }

    public Map<String, ChannelEnd> channels() {
        return channels;
    }

    ChannelEnd requireChannel(String port, String channelId) {
        ChannelEnd c = channels.get(channelId);
        if (c == null || !c.port().equals(port)) {
            throw new ExecError(
                    "channel", 3, "port ID (" + port + ") channel ID (" + channelId + "): channel not found");
        }
        return c;
    }

    /** The full ICS-20 path of a local denom: the trace of an {@code ibc/} voucher, the denom itself otherwise. */
    String fullPath(String denom) {
        if (!denom.startsWith("ibc/")) return denom;
        String path = traces.get("ibc/" + denom.substring(4).toUpperCase(java.util.Locale.ROOT));
        if (path == null) throw new ExecError("transfer", 6, "denomination trace not found: " + denom.substring(4));
        return path;
    }

    /**
     * Sends a token over a channel: escrow or burn, the packet with the next sequence, {@code send_packet} and
     * {@code ibc_transfer}. Returns the packet.
     */
    Packet send(
            EventLog log,
            ChannelEnd c,
            String sender,
            String receiver,
            String denom,
            String amount,
            String memo,
            long timeoutRevisionHeight,
            long timeoutTimestamp) {
        String path = fullPath(denom);
        String coin = Bank.coin(amount, denom);
        if (path.startsWith(c.port() + "/" + c.channelId() + "/")) Bank.burn(log, sender, transferModule, coin);
        else Bank.send(log, sender, IbcAddresses.escrow(c.port(), c.channelId(), prefix), coin);
        PacketData data = new PacketData(path, amount, sender, receiver, memo);
        Packet p = new Packet(
                c.takeSequence(),
                c.port(),
                c.channelId(),
                "transfer",
                c.counterpartyChannelId(),
                data.bytes(),
                0,
                timeoutRevisionHeight,
                timeoutTimestamp);
        PacketEvents.send(log, p, c.connectionId());
        log.add("ibc_transfer", "sender", sender, "receiver", receiver, "amount", amount, "denom", path, "memo", memo);
        log.module("transfer");
        return p;
    }

    /** How a received packet credits this chain: the local denom, and whether it is minted (else unescrowed). */
    record Credit(String denom, boolean minted, String newTrace) {}

    Credit credit(Packet p, PacketData d) {
        String prefixOfSource = p.sourcePort() + "/" + p.sourceChannel() + "/";
        if (d.denom().startsWith(prefixOfSource)) {
            String unprefixed = d.denom().substring(prefixOfSource.length());
            return new Credit(ChainDenoms.onChain(unprefixed), false, null);
        }
        String path = p.destinationPort() + "/" + p.destinationChannel() + "/" + d.denom();
        return new Credit(ChainDenoms.ibcVoucher(path), true, path);
    }

    /** Credits a receiver with a packet's tokens (unescrow or mint), emitting the bank events. */
    void receive(EventLog log, Packet p, Credit credit, String receiver, String amount) {
        String coin = Bank.coin(amount, credit.denom());
        if (credit.minted()) {
            if (traces.put(credit.denom(), credit.newTrace()) == null) {
                log.add("denomination_trace", "trace_hash", credit.denom().substring(4), "denom", credit.denom());
            }
            Bank.mint(log, transferModule, receiver, coin);
        } else {
            Bank.send(log, IbcAddresses.escrow(p.destinationPort(), p.destinationChannel(), prefix), receiver, coin);
        }
    }

    /** Undoes a receipt (the middleware reverting a forward that failed): tokens back to escrow, or burned. */
    void revertReceive(EventLog log, Forward f) {
        String coin = Bank.coin(f.amount(), f.denom());
        Packet up = f.upstream();
        if (f.upstreamMinted()) Bank.burn(log, f.holder(), transferModule, coin);
        else
            Bank.send(
                    log, f.holder(), IbcAddresses.escrow(up.destinationPort(), up.destinationChannel(), prefix), coin);
    }

    /** Refunds the sender of a packet this chain sent (error ack or timeout): unescrow, or mint the burned voucher. */
    void refund(EventLog log, Packet p, PacketData d) {
        String denom = ChainDenoms.onChain(d.denom());
        String coin = Bank.coin(d.amount(), denom);
        if (d.denom().startsWith(p.sourcePort() + "/" + p.sourceChannel() + "/"))
            Bank.mint(log, transferModule, d.sender(), coin);
        else Bank.send(log, IbcAddresses.escrow(p.sourcePort(), p.sourceChannel(), prefix), d.sender(), coin);
    }

    void remember(Packet downstream, Forward f) {
        forwards.put(downstream.sourceKey(), f);
    }

    /** The forward a downstream packet belongs to (removed: it is settled once), or null. */
    Forward settle(Packet downstream) {
        return forwards.remove(downstream.sourceKey());
    }
}
