package dev.weft.api;

import dev.weft.bus.BusError;
import dev.weft.chain.Hex;
import dev.weft.config.ChainConfig;
import dev.weft.runtime.NodeContext;
import dev.weft.store.AccountStore;
import dev.weft.store.BlockStore;
import dev.weft.store.RichListStore;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;

/**
 * Weft's token views: {@code GET /indexer/token/v1/tokens} (every fungible token the rich list has seen move, with its
 * holder count and supply held, symbol and decimals where the registry knows them) and
 * {@code GET /indexer/token/v1/{denom}/transfers} (the token's transfers, keyset pages).
 */
public final class TokenApi implements ApiModule {
    private final AccountStore accounts;
    private final BlockStore blocks;
    private final RichListStore richList;
    private final TokenMetadata metadata;
    private final ChainConfig.Vm vm;
    private final String prefix;

    public TokenApi(NodeContext ctx, TokenMetadata metadata) {
        this.accounts = new AccountStore(ctx.pool());
        this.blocks = new BlockStore(ctx.pool());
        this.richList = new RichListStore(ctx.pool());
        this.metadata = metadata;
        this.vm = ctx.config().chain().vm();
        this.prefix = ctx.config().chain().bech32Prefix();
    }

    @Override
    public void mount(Router router) {
        router.get("/indexer/token/v1/tokens").handler(this::tokens);
        // a regex route: a bank denom's slash may arrive encoded (%2F) or as is (ibc/…, l2/…)
        router.getWithRegex("/indexer/token/v1/(?<denom>.+)/transfers").handler(this::transfers);
    }

    @Override
    public String openApiFragment() {
        return "openapi/tokens.json";
    }

    private String kind() {
        return switch (vm) {
            case EVM -> "erc20";
            case MOVE -> "move_fa";
            case WASM -> "cw20";
        };
    }

    private void tokens(RoutingContext rc) {
        PageRequest page = PageRequest.parse(rc);
        if (page.hasCursor()) throw BusError.badRequest("pagination.key must decode to a nonnegative integer");
        metadata.byToken()
                .recover(e -> io.vertx.core.Future.succeededFuture(java.util.Map.of()))
                .compose(known -> accounts.tokens(page.offset(), page.limit()).map(t -> {
                    JsonArray rows = new JsonArray();
                    for (AccountStore.Token x : t.page().rows()) {
                        String token = Hex.prefixed(x.token());
                        TokenMetadata.Info info = known.get(token);
                        String denom = x.denom() != null ? x.denom() : info == null ? null : info.denom();
                        rows.add(new JsonObject()
                                .put("token", token)
                                .put("denom", denom)
                                .put("kind", kind())
                                .put("symbol", info == null ? null : info.symbol())
                                .put("decimals", info == null ? null : info.decimals())
                                .put("holders", Long.toString(x.holders()))
                                .put("supply", x.supply()));
                    }
                    return new JsonObject()
                            .put("tokens", rows)
                            .put("height", t.height() == null ? null : Long.toString(t.height()))
                            .put(
                                    "pagination",
                                    PageResponse.offset(
                                            page, t.page().more(), t.page().total()));
                }))
                .onSuccess(body -> Responses.json(rc, body))
                .onFailure(rc::fail);
    }

    private void transfers(RoutingContext rc) {
        String denom = rc.pathParam("denom");
        AccountApi.transferPage(rc, blocks, accounts, richList, vm, prefix, null, AccountStore.Direction.ANY, denom);
    }
}
