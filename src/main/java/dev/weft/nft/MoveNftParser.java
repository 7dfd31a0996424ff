package dev.weft.nft;

import com.fasterxml.jackson.databind.JsonNode;
import dev.weft.chain.Hex;
import dev.weft.chain.model.AbciEvent;
import dev.weft.chain.model.NodeJson;
import dev.weft.model.nft.NftAddresses;
import dev.weft.model.nft.NftEvent;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Move NFTs: {@code move} events by {@code type_tag}, their {@code data} JSON as the Move stdlib's collection and nft modules emit it:
 * {@code 0x1::collection::CreateCollectionEvent {collection, creator, name}}, {@code 0x1::collection::MintEvent
 * {collection, token_id|index, nft}}, {@code 0x1::collection::BurnEvent {collection, token_id|index, nft}},
 * {@code 0x1::object::TransferEvent {object, from, to}} (any object; only NFTs are affected when applied) and
 * {@code 0x1::nft::MutationEvent {nft, mutated_field_name, new_value}} when the URI changes. Token ids and URIs are
 * completed from the {@code 0x1::nft::Nft} resource by {@link NftMetadata}.
 */
public final class MoveNftParser implements NftParser {
    @Override
    public void parse(int txIndex, List<AbciEvent> events, List<NftEvent> out) {
        for (AbciEvent e : events) {
            if (!e.type().equals("move")) continue;
            String tag = null;
            String data = null;
            for (AbciEvent.Attribute a : e.attributes()) {
                if (a.key().equals("type_tag")) tag = a.value();
                else if (a.key().equals("data")) data = a.value();
            }
            if (tag == null || data == null) continue;
            String kind = stdlibEvent(tag);
            if (kind == null) continue;
            JsonNode d;
            try {
                d = NodeJson.parse(data.getBytes(StandardCharsets.UTF_8));
            } catch (RuntimeException ex) {
                continue;
            }
            NftEvent ev = event(txIndex, kind, d);
            if (ev != null) out.add(ev);
        }
    }

    private static NftEvent event(int tx, String kind, JsonNode d) {
        try {
            return switch (kind) {
                case "collection::CreateCollectionEvent" ->
                    NftEvent.collection(
                            tx,
                            NftAddresses.object(text(d, "collection")),
                            NftAddresses.account(text(d, "creator")),
                            NodeJson.text(d, "name", ""));
                case "collection::MintEvent" ->
                    NftEvent.mint(
                            tx,
                            NftAddresses.object(text(d, "collection")),
                            tokenId(d),
                            NftAddresses.object(text(d, "nft")),
                            null,
                            null);
                case "collection::BurnEvent" ->
                    NftEvent.burn(
                            tx,
                            NftAddresses.object(text(d, "collection")),
                            tokenId(d),
                            NftAddresses.object(text(d, "nft")));
                case "object::TransferEvent" ->
                    NftEvent.transfer(
                            tx,
                            null,
                            null,
                            NftAddresses.object(text(d, "object")),
                            NftAddresses.account(text(d, "to")));
                case "nft::MutationEvent" ->
                    "uri".equals(NodeJson.text(d, "mutated_field_name", ""))
                            ? NftEvent.uri(tx, NftAddresses.object(text(d, "nft")), NodeJson.text(d, "new_value", null))
                            : null;
                default -> null;
            };
        } catch (IllegalArgumentException ex) {
            return null; // an address that does not parse: not an event of the standard library
        }
    }

    /** {@code module::Name} of an event of the standard library at 0x1, else null. */
    static String stdlibEvent(String tag) {
        int first = tag.indexOf("::");
        if (first < 0) return null;
        String addr = Hex.strip(tag.substring(0, first));
        for (int i = 0; i < addr.length() - 1; i++) if (addr.charAt(i) != '0') return null;
        if (!addr.endsWith("1")) return null;
        return tag.substring(first + 2);
    }

    private static String text(JsonNode d, String field) {
        String s = NodeJson.text(d, field, null);
        if (s == null) throw new IllegalArgumentException("missing " + field);
        return s;
    }

    /** The token id of a mint or burn event: {@code token_id} (Initia), else {@code index}; null when neither. */
    private static String tokenId(JsonNode d) {
        String id = NodeJson.text(d, "token_id", null);
        return id != null ? id : NodeJson.text(d, "index", null);
    }
}
