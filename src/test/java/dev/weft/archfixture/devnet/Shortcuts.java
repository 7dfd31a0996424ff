package dev.weft.archfixture.devnet;

import dev.weft.archfixture.api.Endpoint;
import dev.weft.archfixture.evm.EvmCode;
import dev.weft.archfixture.ingest.IngestCode;
import dev.weft.archfixture.nft.NftCode;
import dev.weft.archfixture.pipeline.PipelineCode;
import dev.weft.archfixture.richlist.RichlistCode;
import dev.weft.archfixture.route.RouteCode;
import dev.weft.archfixture.store.RowStore;
import dev.weft.archfixture.track.TrackCode;
import dev.weft.archfixture.wallet.WalletCode;
import java.util.List;

/** A devnet that (wrongly) borrows product code: one planted import of each package the devnet must not use. */
public final class Shortcuts {
    public List<Object> borrowed() {
        return List.of(
                new Endpoint(),
                new EvmCode(),
                new IngestCode(),
                new NftCode(),
                new PipelineCode(),
                new RichlistCode(),
                new RouteCode(),
                new RowStore(),
                new TrackCode(),
                new WalletCode());
    }
}
