package dev.weft.chain.model;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.weft.chain.AccountAddress;
import dev.weft.chain.Hex;
import java.io.IOException;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;

/**
 * An EVM log as minievm puts it in the {@code log} attribute of an {@code evm} event ({@code {"address","topics","data"}})
 * and as receipts list it. Transfer logs are the ERC-20 and ERC-721 {@code Transfer(from, to, value|tokenId)}: ERC-20
 * has 3 topics and the amount in {@code data}, ERC-721 has 4 topics (the token id is topic 3) and empty data.
 */
public record EvmLog(String address, List<String> topics, String data) {
    /** keccak256("Transfer(address,address,uint256)"). */
    public static final String TRANSFER_TOPIC = "0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef";

    /** Parses the JSON of a log; null when it is not one. */
    public static EvmLog parse(String json) {
        try (JsonParser p = NodeJson.FACTORY.createParser(json)) {
            if (p.nextToken() != JsonToken.START_OBJECT) return null;
            String address = null;
            String data = "";
            List<String> topics = new ArrayList<>(4);
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String f = p.currentName();
                JsonToken t = p.nextToken();
                switch (f) {
                    case "address" -> address = p.getValueAsString();
                    case "data" -> data = t == JsonToken.VALUE_NULL ? "" : p.getValueAsString();
                    case "topics" -> {
                        if (t != JsonToken.START_ARRAY) return null;
                        while (p.nextToken() == JsonToken.VALUE_STRING) topics.add(p.getText());
                    }
                    default -> p.skipChildren();
                }
            }
            return address == null ? null : new EvmLog(address, topics, data == null ? "" : data);
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /** Whether the log text may be a Transfer (a cheap test before parsing: most logs of a block are not). */
    public static boolean mayBeTransfer(String json) {
        return json.contains("ddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef");
    }

    public boolean isTransfer() {
        return !topics.isEmpty() && topics.get(0).equalsIgnoreCase(TRANSFER_TOPIC);
    }

    /** An ERC-721 Transfer: 4 topics and empty data. */
    public boolean isErc721Transfer() {
        return isTransfer() && topics.size() == 4 && (data.isEmpty() || data.equals("0x") || data.equals("0X"));
    }

    /** An ERC-20 Transfer: exactly 3 topics (the amount is the data word). */
    public boolean isErc20Transfer() {
        return isTransfer() && topics.size() == 3;
    }

    /** The contract that emitted the log; null when the address is malformed. */
    public AccountAddress contract() {
        return Hex.isHex(address, 20) ? AccountAddress.of(Hex.decode(address)) : null;
    }

    /** The 20-byte address in the low bytes of a topic; null when the topic is not a 32-byte word. */
    public AccountAddress topicAddress(int i) {
        String t = topics.get(i);
        if (!Hex.isHex(t, 32)) return null;
        return AccountAddress.of(Hex.decode(Hex.strip(t).substring(24)));
    }

    /** A topic as an unsigned integer (ERC-721 token ids). */
    public BigInteger topicUint(int i) {
        return new BigInteger(Hex.strip(topics.get(i)), 16);
    }

    /** The data as one unsigned integer (the ERC-20 amount); null when it is not a hex word. */
    public BigInteger dataUint() {
        String h = Hex.strip(data);
        if (h.isEmpty() || h.length() > 64) return null;
        try {
            return new BigInteger(h, 16);
        } catch (NumberFormatException e) {
            return null;
        }
    }

    public static boolean isZero(AccountAddress a) {
        for (byte b : a.bytes()) if (b != 0) return false;
        return true;
    }
}
