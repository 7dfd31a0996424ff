package dev.weft.devnet.ibc;

import dev.weft.devnet.exec.EventLog;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The ICS-04 channel events with ibc-go's attribute names and order ({@code packet_data} is the deprecated plain copy
 * of {@code packet_data_hex}, kept for older consumers; {@code packet_connection} the deprecated copy of
 * {@code connection_id}), each followed by {@code message{module: ibc_channel}}.
 */
final class PacketEvents {
    static final String ORDERING = "ORDER_UNORDERED";

    private PacketEvents() {}

    static void send(EventLog log, Packet p, String connection) {
        emit(
                log,
                "send_packet",
                attributes(
                        p,
                        true,
                        "packet_channel_ordering",
                        ORDERING,
                        "packet_connection",
                        connection,
                        "connection_id",
                        connection));
    }

    static void recv(EventLog log, Packet p, String connection) {
        emit(
                log,
                "recv_packet",
                attributes(
                        p,
                        true,
                        "packet_channel_ordering",
                        ORDERING,
                        "packet_connection",
                        connection,
                        "connection_id",
                        connection));
    }

    static void writeAck(EventLog log, Packet p, byte[] ack, String connection) {
        emit(
                log,
                "write_acknowledgement",
                attributes(
                        p,
                        true,
                        "packet_ack",
                        new String(ack, StandardCharsets.UTF_8),
                        "packet_ack_hex",
                        dev.weft.chain.Hex.lower(ack),
                        "packet_connection",
                        connection,
                        "connection_id",
                        connection));
    }

    static void acknowledge(EventLog log, Packet p, String connection) {
        emit(
                log,
                "acknowledge_packet",
                attributes(
                        p,
                        false,
                        "packet_channel_ordering",
                        ORDERING,
                        "packet_connection",
                        connection,
                        "connection_id",
                        connection));
    }

    static void timeout(EventLog log, Packet p, String connection) {
        emit(
                log,
                "timeout_packet",
                attributes(p, false, "packet_channel_ordering", ORDERING, "connection_id", connection));
    }

    private static void emit(EventLog log, String type, String[] attributes) {
        log.add(type, attributes);
        log.module("ibc_channel");
    }

    /** The packet's data (when {@code withData}), its timeouts, sequence and both ends, then {@code tail}: ibc-go's order. */
    private static String[] attributes(Packet p, boolean withData, String... tail) {
        List<String> kv = new ArrayList<>(18 + tail.length);
        if (withData) kv.addAll(List.of("packet_data", p.dataText(), "packet_data_hex", p.dataHex()));
        kv.addAll(List.of(
                "packet_timeout_height",
                p.timeoutHeightText(),
                "packet_timeout_timestamp",
                Long.toUnsignedString(p.timeoutTimestamp()),
                "packet_sequence",
                Long.toUnsignedString(p.sequence()),
                "packet_src_port",
                p.sourcePort(),
                "packet_src_channel",
                p.sourceChannel(),
                "packet_dst_port",
                p.destinationPort(),
                "packet_dst_channel",
                p.destinationChannel()));
        kv.addAll(List.of(tail));
        return kv.toArray(new String[0]);
    }
}
