package dev.weft.ingest;

import dev.weft.chain.model.BlockResults;
import dev.weft.chain.model.CometBlock;
import dev.weft.chain.model.NodeJson;
import dev.weft.chain.model.RestTx;
import dev.weft.config.ChainConfig;
import dev.weft.model.ingest.IndexedBlock;
import dev.weft.testsupport.FixtureChain;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;

/** Fixture-chain blocks assembled directly (no HTTP), for store-level tests. */
final class FixtureBlocks {
    private final FixtureChain chain;
    private final BlockAssembler assembler;

    FixtureBlocks(FixtureChain chain, ChainConfig config) {
        this.chain = chain;
        this.assembler = new BlockAssembler(new AccountExtractor(config), dev.weft.nft.NftParser.forChain(config));
    }

    IndexedBlock block(long h) {
        BlockAssembler.Decoded d =
                assembler.decode(CometBlock.parse(NodeJson.parse(chain.block(h).toBuffer())));
        List<JsonObject> rest = new ArrayList<>();
        List<JsonObject> receipts = new ArrayList<>();
        for (int i = 0; i < FixtureChain.txCount(h); i++) {
            rest.add(chain.restTx(h, i));
            if (FixtureChain.hasReceipt(h, i)) receipts.add(chain.receipt(h, i));
        }
        RestTx[] slots = new RestTx[d.txs().size()];
        if (TxMatcher.match(d.keys(), Nodes.restTxs(rest), slots) != 0) throw new IllegalStateException("unmatched");
        BlockResults results =
                BlockResults.parse(NodeJson.parse(chain.blockResults(h).toBuffer()));
        return assembler.assemble(
                d,
                results,
                slots,
                Nodes.receipts(receipts),
                new IndexedBlock.Proposer(FixtureChain.MONIKER, "", chain.operatorAddress()),
                assembler.nfts(results));
    }

    List<IndexedBlock> range(long from, long to) {
        List<IndexedBlock> out = new ArrayList<>();
        for (long h = from; h <= to; h++) out.add(block(h));
        return out;
    }
}
