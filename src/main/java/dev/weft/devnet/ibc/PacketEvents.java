package dev.weft.devnet.ibc;

import dev.weft.devnet.exec.EventLog;

import java.nio.charset.StandardCharsets;

/**
 * The ICS-04 channel events with ibc-go's attribute names and order ({@code packet_data} is the deprecated plain copy
 * of {@code packet_data_hex}, kept for older consumers; {@code packet_connection} the deprecated copy of
 * {@code connection_id}), each followed by {@code message{module: ibc_channel}}.
 */
final class PacketEvents {
  static final String ORDERING = "ORDER_UNORDERED";

  private PacketEvents() {}

  static void send(EventLog log, Packet p, String connection) {
    log.add("send_packet",
        "packet_data", p.dataText(), "packet_data_hex", p.dataHex(),
        "packet_timeout_height", p.timeoutHeightText(), "packet_timeout_timestamp", Long.toUnsignedString(p.timeoutTimestamp()),
        "packet_sequence", Long.toUnsignedString(p.sequence()),
        "packet_src_port", p.sourcePort(), "packet_src_channel", p.sourceChannel(),
        "packet_dst_port", p.destinationPort(), "packet_dst_channel", p.destinationChannel(),
        "packet_channel_ordering", ORDERING, "packet_connection", connection, "connection_id", connection);
    log.module("ibc_channel");
  }

  static void recv(EventLog log, Packet p, String connection) {
    log.add("recv_packet",
        "packet_data", p.dataText(), "packet_data_hex", p.dataHex(),
        "packet_timeout_height", p.timeoutHeightText(), "packet_timeout_timestamp", Long.toUnsignedString(p.timeoutTimestamp()),
        "packet_sequence", Long.toUnsignedString(p.sequence()),
        "packet_src_port", p.sourcePort(), "packet_src_channel", p.sourceChannel(),
        "packet_dst_port", p.destinationPort(), "packet_dst_channel", p.destinationChannel(),
        "packet_channel_ordering", ORDERING, "packet_connection", connection, "connection_id", connection);
    log.module("ibc_channel");
  }

  static void writeAck(EventLog log, Packet p, byte[] ack, String connection) {
    log.add("write_acknowledgement",
        "packet_data", p.dataText(), "packet_data_hex", p.dataHex(),
        "packet_timeout_height", p.timeoutHeightText(), "packet_timeout_timestamp", Long.toUnsignedString(p.timeoutTimestamp()),
        "packet_sequence", Long.toUnsignedString(p.sequence()),
        "packet_src_port", p.sourcePort(), "packet_src_channel", p.sourceChannel(),
        "packet_dst_port", p.destinationPort(), "packet_dst_channel", p.destinationChannel(),
        "packet_ack", new String(ack, StandardCharsets.UTF_8), "packet_ack_hex", dev.weft.chain.Hex.lower(ack),
        "packet_connection", connection, "connection_id", connection);
    log.module("ibc_channel");
  }

  static void acknowledge(EventLog log, Packet p, String connection) {
    log.add("acknowledge_packet",
        "packet_timeout_height", p.timeoutHeightText(), "packet_timeout_timestamp", Long.toUnsignedString(p.timeoutTimestamp()),
        "packet_sequence", Long.toUnsignedString(p.sequence()),
        "packet_src_port", p.sourcePort(), "packet_src_channel", p.sourceChannel(),
        "packet_dst_port", p.destinationPort(), "packet_dst_channel", p.destinationChannel(),
        "packet_channel_ordering", ORDERING, "packet_connection", connection, "connection_id", connection);
    log.module("ibc_channel");
  }

  static void timeout(EventLog log, Packet p, String connection) {
    log.add("timeout_packet",
        "packet_timeout_height", p.timeoutHeightText(), "packet_timeout_timestamp", Long.toUnsignedString(p.timeoutTimestamp()),
        "packet_sequence", Long.toUnsignedString(p.sequence()),
        "packet_src_port", p.sourcePort(), "packet_src_channel", p.sourceChannel(),
        "packet_dst_port", p.destinationPort(), "packet_dst_channel", p.destinationChannel(),
        "packet_channel_ordering", ORDERING, "connection_id", connection);
    log.module("ibc_channel");
  }
}
