package dev.weft.devnet.gen;

import java.util.List;

/**
 * An EVM log. {@code address} is the lower-case hex the JSON-RPC prints; {@code checksum} the EIP-55 form minievm
 * prints in the Cosmos {@code evm} event, whose {@code log} attribute is {@link #cosmosJson()}.
 */
public record EvmLog(String address, String checksum, List<String> topics, String data) {

    public String cosmosJson() {
        StringBuilder sb = new StringBuilder(96 + 70 * topics.size() + data.length());
        sb.append("{\"address\":\"").append(checksum).append("\",\"topics\":[");
        for (int i = 0; i < topics.size(); i++) {
            if (i > 0) sb.append(',');
            sb.append('"').append(topics.get(i)).append('"');
        }
        return sb.append("],\"data\":\"").append(data).append("\"}").toString();
    }
}
