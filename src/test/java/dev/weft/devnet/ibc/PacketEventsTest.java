package dev.weft.devnet.ibc;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.weft.devnet.exec.EventLog;
import dev.weft.devnet.gen.Event;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The ICS-04 channel events: ibc-go's attribute names, order and values, each followed by its module event. */
class PacketEventsTest {
    static final Packet P = new Packet(
            7,
            "transfer",
            "channel-0",
            "transfer",
            "channel-1",
            "{\"a\":1}".getBytes(StandardCharsets.UTF_8),
            1,
            50,
            99);

    static String render(EventLog log) {
        StringBuilder b = new StringBuilder();
        for (Event e : log.events()) {
            b.append(e.type()).append('{');
            for (Event.Attr a : e.attributes())
                b.append(a.key()).append('=').append(a.value()).append(';');
            b.append("}\n");
        }
        return b.toString();
    }

    @Test
    @DisplayName("send, recv, write_acknowledgement, acknowledge and timeout, attribute by attribute")
    void shapes() {
        String core =
                "packet_timeout_height=1-50;packet_timeout_timestamp=99;packet_sequence=7;packet_src_port=transfer;"
                        + "packet_src_channel=channel-0;packet_dst_port=transfer;packet_dst_channel=channel-1;";
        String data = "packet_data={\"a\":1};packet_data_hex=7b2261223a317d;";
        String module = "message{module=ibc_channel;msg_index=0;}\n";
        EventLog log = new EventLog(0);
        PacketEvents.send(log, P, "connection-0");
        PacketEvents.recv(log, P, "connection-0");
        PacketEvents.writeAck(log, P, "{\"result\":\"AQ==\"}".getBytes(StandardCharsets.UTF_8), "connection-0");
        PacketEvents.acknowledge(log, P, "connection-0");
        PacketEvents.timeout(log, P, "connection-0");
        assertEquals(
                String.join(
                        "",
                        List.of(
                                "send_packet{" + data + core
                                                + "packet_channel_ordering=ORDER_UNORDERED;packet_connection=connection-0;connection_id=connection-0;msg_index=0;}\n",
                                        module,
                                "recv_packet{" + data + core
                                                + "packet_channel_ordering=ORDER_UNORDERED;packet_connection=connection-0;connection_id=connection-0;msg_index=0;}\n",
                                        module,
                                "write_acknowledgement{" + data + core
                                                + "packet_ack={\"result\":\"AQ==\"};packet_ack_hex=7b22726573756c74223a2241513d3d227d;"
                                                + "packet_connection=connection-0;connection_id=connection-0;msg_index=0;}\n",
                                        module,
                                "acknowledge_packet{" + core
                                                + "packet_channel_ordering=ORDER_UNORDERED;packet_connection=connection-0;connection_id=connection-0;msg_index=0;}\n",
                                        module,
                                "timeout_packet{" + core
                                                + "packet_channel_ordering=ORDER_UNORDERED;connection_id=connection-0;msg_index=0;}\n",
                                        module)),
                render(log));
    }
}
