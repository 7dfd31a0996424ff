package dev.weft.nft;

import dev.weft.chain.AccountAddress;
import dev.weft.chain.model.AbciEvent;
import dev.weft.chain.model.EvmLog;
import dev.weft.model.nft.NftEvent;
import java.util.List;

/**
 * ERC-721 on EVM rollups: {@code evm} events whose {@code log} is a Transfer with 4 topics and empty data (ERC-20
 * Transfers have 3). From the zero address: a mint; to the zero address: a burn; else a transfer. The token id is
 * topic 3 in decimal.
 */
public final class EvmNftParser implements NftParser {
    @Override
    public void parse(int txIndex, List<AbciEvent> events, List<NftEvent> out) {
        for (AbciEvent e : events) {
            if (!e.type().equals("evm")) continue;
            for (AbciEvent.Attribute a : e.attributes()) {
                if (!a.key().equals("log") || !EvmLog.mayBeTransfer(a.value())) continue;
                EvmLog log = a.evmLog();
                if (log != null && log.isErc721Transfer()) add(txIndex, log, out);
            }
        }
    }

    private static void add(int txIndex, EvmLog log, List<NftEvent> out) {
        AccountAddress contract = log.contract();
        AccountAddress from = log.topicAddress(1);
        AccountAddress to = log.topicAddress(2);
        if (contract == null || from == null || to == null) return;
        String tokenId;
        try {
            tokenId = log.topicUint(3).toString();
        } catch (NumberFormatException ex) {
            return;
        }
        boolean mint = EvmLog.isZero(from);
        boolean burn = EvmLog.isZero(to);
        if (mint && burn) return;
        if (mint) out.add(NftEvent.mint(txIndex, contract, tokenId, null, to, null));
        else if (burn) out.add(NftEvent.burn(txIndex, contract, tokenId, null));
        else out.add(NftEvent.transfer(txIndex, contract, tokenId, null, to));
    }
}
