package dev.weft.node;

import dev.weft.api.AccountApi;
import dev.weft.api.AdminApi;
import dev.weft.api.ApiModule;
import dev.weft.api.BlockApi;
import dev.weft.api.ChainsApi;
import dev.weft.api.CrossChainAccountApi;
import dev.weft.api.DocsApi;
import dev.weft.api.EventsApi;
import dev.weft.api.EvmInternalTxApi;
import dev.weft.api.EvmLogApi;
import dev.weft.api.EvmTxApi;
import dev.weft.api.InfoApi;
import dev.weft.api.LiveApi;
import dev.weft.api.NftActivityApi;
import dev.weft.api.NftApi;
import dev.weft.api.PageCache;
import dev.weft.api.RichListApi;
import dev.weft.api.SearchApi;
import dev.weft.api.StatsApi;
import dev.weft.api.SystemApi;
import dev.weft.api.TokenApi;
import dev.weft.api.TxApi;
import dev.weft.route.PairApi;
import dev.weft.route.RegistryTokens;
import dev.weft.route.RoutingApi;
import dev.weft.runtime.NodeContext;
import dev.weft.track.TrackingApi;
import dev.weft.track.WatchApi;
import dev.weft.wallet.WalletApi;
import dev.weft.webhook.WebhooksApi;
import java.util.List;

/**
 * The endpoint families the HTTP API serves, in mount order: the API package's own indexer and system modules plus the
 * routing and tracking modules their features contribute (wired here so that {@code api} imports no feature).
 */
public final class ApiModules {
    private ApiModules() {}

    public static List<ApiModule> forNode(NodeContext node) {
        // the indexer's read-only families read through the chain's read pool (replicas fresh enough, else the
        // primary); the families that write (admin, tracking, webhooks, watches, wallet) and the event feed keep
        // the primary
        NodeContext ctx = node;
        NodeContext reads = reads(node);
        // one cache of encoded tx pages per HTTP verticle instance (this is called once per instance), shared by its tx
        // lists
        PageCache pages = new PageCache(reads.pool(), ctx.config().http().pageCacheBytes());
        return List.of(
                new SystemApi(ctx, VerticleKinds.all()),
                new ChainsApi(ctx, ApiModules::indexerModules),
                new CrossChainAccountApi(ctx),
                new AdminApi(ctx, VerticleKinds.all()),
                new LiveApi(ctx),
                new DocsApi(),
                new RoutingApi(ctx),
                new BlockApi(reads),
                new TxApi(reads, pages),
                new EvmTxApi(reads, pages),
                new EvmInternalTxApi(reads),
                new EvmLogApi(reads),
                new NftApi(reads),
                new NftActivityApi(reads),
                new RichListApi(reads),
                new InfoApi(ctx),
                new AccountApi(reads),
                new TokenApi(reads, new RegistryTokens(ctx)),
                new SearchApi(reads),
                new StatsApi(reads),
                new PairApi(ctx),
                new EventsApi(ctx),
                new TrackingApi(ctx),
                new WebhooksApi(ctx),
                new WatchApi(ctx),
                new WalletApi(ctx));
    }

    /** One chain's indexer endpoint families, as {@code /chains/{chain_id}} serves them. */
    static List<ApiModule> indexerModules(NodeContext primary) {
        NodeContext chain = reads(primary);
        PageCache pages = new PageCache(chain.pool(), chain.config().http().pageCacheBytes());
        return List.of(
                new BlockApi(chain),
                new TxApi(chain, pages),
                new EvmTxApi(chain, pages),
                new EvmInternalTxApi(chain),
                new NftApi(chain),
                new NftActivityApi(chain),
                new RichListApi(chain),
                new AccountApi(chain),
                new TokenApi(chain, new RegistryTokens(primary)),
                new SearchApi(chain),
                new PairApi(chain));
    }

    /** {@code ctx} with its chain's read pool as {@code pool()} (itself when the chain has none). */
    static NodeContext reads(NodeContext ctx) {
        if (ctx.pool() == null) return ctx;
        return ctx.chains()
                .readPool(ctx.config().chain().chainId())
                .map(p -> ctx.forChain(ctx.config(), p, ctx.dbOptions()))
                .orElse(ctx);
    }
}
