package dev.weft.nft;

import dev.weft.chain.model.AbciEvent;
import dev.weft.config.ChainConfig;
import dev.weft.model.nft.NftEvent;
import java.util.List;

/** Reads the NFT changes of a tx from its events (the Move, cw721 and ERC-721 event shapes); pure and thread-safe. */
public interface NftParser {
    /** Appends the changes of one tx's events to {@code out}, in event order. */
    void parse(int txIndex, List<AbciEvent> events, List<NftEvent> out);

    /** The parser of the chain's VM, with the origin names of collections received over ICS-721 ({@link IbcNftOrigins}). */
    static NftParser forChain(ChainConfig chain) {
        NftParser vm = switch (chain.vm()) {
            case EVM -> new EvmNftParser();
            case MOVE -> new MoveNftParser();
            case WASM -> new WasmNftParser(chain.bech32Prefix());
        };
        return (txIndex, events, out) -> {
            vm.parse(txIndex, events, out);
            IbcNftOrigins.parse(txIndex, events, chain.vm(), out);
        };
    }
}
