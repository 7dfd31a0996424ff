package dev.weft.nft;

import dev.weft.chain.AccountAddress;
import dev.weft.chain.Bech32;
import dev.weft.chain.model.AbciEvent;
import dev.weft.model.nft.NftEvent;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * cw721 on Wasm rollups: {@code wasm} events by {@code _contract_address} and {@code action}: {@code mint}
 * ({@code token_id}, {@code owner}, optional {@code token_uri}), {@code transfer_nft} / {@code send_nft}
 * ({@code token_id}, {@code recipient}), {@code burn} ({@code token_id}). An event carrying {@code minter} and
 * {@code creator} or {@code owner} (instantiate, and mints) names a collection; its name and creator are read from
 * the contract by {@link NftMetadata}, which also drops contracts that are not cw721.
 */
public final class WasmNftParser implements NftParser {
    private final String prefix;

    public WasmNftParser(String bech32Prefix) {
        this.prefix = bech32Prefix;
    }

    @Override
    public void parse(int txIndex, List<AbciEvent> events, List<NftEvent> out) {
        for (AbciEvent e : events) {
            if (!e.type().equals("wasm")) continue;
            Map<String, String> attrs = new HashMap<>();
            for (AbciEvent.Attribute a : e.attributes()) attrs.putIfAbsent(a.key(), a.value());
            AccountAddress contract = address(attrs.get("_contract_address"));
            if (contract == null) continue;
            if (attrs.containsKey("minter") && (attrs.containsKey("creator") || attrs.containsKey("owner"))) {
                out.add(NftEvent.collection(txIndex, contract, address(attrs.get("creator")), null));
            }
            String token = attrs.get("token_id");
            String action = attrs.getOrDefault("action", "");
            if (token == null) continue;
            switch (action) {
                case "mint" -> {
                    AccountAddress owner = address(attrs.get("owner"));
                    if (owner != null)
                        out.add(NftEvent.mint(
                                txIndex, contract, token, null, owner, attrs.getOrDefault("token_uri", "")));
                }
                case "transfer_nft", "send_nft" -> {
                    AccountAddress to = address(attrs.get("recipient"));
                    if (to != null) out.add(NftEvent.transfer(txIndex, contract, token, null, to));
                }
                case "burn" -> out.add(NftEvent.burn(txIndex, contract, token, null));
                default -> {}
            }
        }
    }

    /** A bech32 address of the chain's prefix; null otherwise. */
    private AccountAddress address(String s) {
        if (s == null || !s.startsWith(prefix + "1")) return null;
        try {
            Bech32.Decoded d = Bech32.decode(s);
            return d.prefix().equals(prefix) ? AccountAddress.of(d.data()) : null;
        } catch (RuntimeException e) {
            return null;
        }
    }
}
