package dev.weft.nft;

import dev.weft.chain.Hashes;
import dev.weft.chain.Hex;
import dev.weft.chain.model.AbciEvent;
import dev.weft.config.ChainConfig;
import dev.weft.model.nft.NftEvent;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;

/**
 * The origin name of an NFT collection that arrived over ICS-721, as rollytics keeps it
 * ({@code indexer/collector/nft-pair}): a {@code recv_packet} event from port {@code nft-transfer} carries
 * {@code packet_data} {@code {"classId", "classData", …}}, {@code classData} the base64 JSON {@code {"name", …}} of the
 * collection on its source chain; the collection this chain created for it is named by the class id it received:
 * {@code {dst port}/{dst channel}/{classId}} on Wasm, {@code ibc/} + upper-hex SHA-256 of that path elsewhere
 * (initia-labs/initia {@code x/ibc/nft-transfer/types}: {@code GetPrefixedClassId}, {@code GetNftTransferClassId}).
 */
public final class IbcNftOrigins {
    private IbcNftOrigins() {}

    /** Appends an {@link NftEvent.Kind#ORIGIN} change for each ICS-721 packet one tx received. */
    public static void parse(int txIndex, List<AbciEvent> events, ChainConfig.Vm vm, List<NftEvent> out) {
        for (AbciEvent e : events) {
            if (!e.type().equals("recv_packet") || !"nft-transfer".equals(value(e, "packet_src_port"))) continue;
            String port = value(e, "packet_dst_port");
            String channel = value(e, "packet_dst_channel");
            String data = value(e, "packet_data");
            if (port == null || channel == null || data == null) continue;
            try {
                JsonObject packet = new JsonObject(data);
                String classId = packet.getString("classId");
                String classData = packet.getString("classData");
                if (classId == null || classData == null) continue;
                String name = new JsonObject(new String(Base64.getDecoder().decode(classData), StandardCharsets.UTF_8))
                        .getString("name");
                if (name == null) continue;
                out.add(NftEvent.origin(txIndex, classIdOnThisChain(vm, port, channel, classId), name));
            } catch (RuntimeException malformed) {
                // a packet the module would have refused: no collection was created for it
            }
        }
    }

    /** The class id (collection name) this chain gives a class received over {@code port}/{@code channel}. */
    static String classIdOnThisChain(ChainConfig.Vm vm, String port, String channel, String classId) {
        String path = port + "/" + channel + "/" + classId;
        if (vm == ChainConfig.Vm.WASM) return path;
        return "ibc/" + Hex.upper(Hashes.sha256(path.getBytes(StandardCharsets.UTF_8)));
    }

    private static String value(AbciEvent e, String key) {
        for (AbciEvent.Attribute a : e.attributes()) if (a.key().equals(key)) return a.value();
        return null;
    }
}
