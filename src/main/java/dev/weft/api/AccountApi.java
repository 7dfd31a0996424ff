package dev.weft.api;

import dev.weft.bus.BusError;
import dev.weft.chain.AccountAddress;
import dev.weft.chain.Hex;
import dev.weft.chain.model.Rfc3339;
import dev.weft.config.ChainConfig;
import dev.weft.model.ingest.TxCategory;
import dev.weft.runtime.NodeContext;
import dev.weft.store.AccountStore;
import dev.weft.store.BlockStore;
import dev.weft.store.RichListStore;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import java.util.Locale;

/**
 * Weft's account views, {@code /indexer/account/v1/{address}/*}: the summary (exact counters), the token balances (the
 * rich list's rows, with the height they are exact at) and the fungible transfers in and out (keyset pages). The
 * address is bech32 of the chain's prefix or hex of 20 or 32 bytes, as on {@code txs/by_account}.
 */
public final class AccountApi implements ApiModule {
    private final AccountStore accounts;
    private final BlockStore blocks;
    private final RichListStore richList;
    private final ChainConfig.Vm vm;
    private final String prefix;
    private final dev.weft.config.ExportConfig export;

    public AccountApi(NodeContext ctx) {
        this.accounts = new AccountStore(ctx.pool());
        this.blocks = new BlockStore(ctx.pool());
        this.richList = new RichListStore(ctx.pool());
        this.vm = ctx.config().chain().vm();
        this.prefix = ctx.config().chain().bech32Prefix();
        this.export = ctx.config().export();
    }

    @Override
    public void mount(Router router) {
        router.get("/indexer/account/v1/:address/summary").handler(this::summary);
        router.get("/indexer/account/v1/:address/balances").handler(this::balances);
        router.get("/indexer/account/v1/:address/transfers").handler(this::transfers);
    }

    @Override
    public String openApiFragment() {
        return "openapi/accounts.json";
    }

    private AccountAddress address(RoutingContext rc) {
        return IndexerParams.account(rc, prefix, "address");
    }

    private void summary(RoutingContext rc) {
        AccountAddress a = address(rc);
        Future<java.util.Map<Short, Long>> categories = accounts.categories(a.bytes());
        accounts.summary(a.bytes())
                .compose(s -> categories.map(s))
                .onSuccess(s -> Responses.json(
                        rc,
                        new JsonObject()
                                .put(
                                        "summary",
                                        new JsonObject()
                                                .put("address", a.bech32(prefix))
                                                .put("hex", Hex.prefixed(a.bytes()))
                                                .put("txs", Long.toString(s.txs()))
                                                .put("signer_txs", Long.toString(s.signerTxs()))
                                                .put("evm_txs", Long.toString(s.evmTxs()))
                                                .put("evm_signer_txs", Long.toString(s.evmSignerTxs()))
                                                .put("internal_txs", Long.toString(s.internalTxs()))
                                                .put("nfts", Long.toString(s.nfts()))
                                                .put("tokens", Long.toString(s.tokens()))
                                                .put("first_height", string(s.firstHeight()))
                                                .put("first_timestamp", time(s.firstTimeNs()))
                                                .put("last_height", string(s.lastHeight()))
                                                .put("last_timestamp", time(s.lastTimeNs()))
                                                .put("height", string(s.ingestHeight()))
                                                .put("internal_txs_height", string(s.evmHeight()))
                                                .put("tokens_height", string(s.richListHeight()))
                                                .put("categories", categories(categories.result())))))
                .onFailure(rc::fail);
    }

    /** Every category's count, as strings, in {@link TxCategory} order (0 where the account has none). */
    private static JsonObject categories(java.util.Map<Short, Long> counts) {
        JsonObject o = new JsonObject();
        for (TxCategory c : TxCategory.ALL) o.put(c.label, Long.toString(counts.getOrDefault(c.code, 0L)));
        return o;
    }

    private void balances(RoutingContext rc) {
        AccountAddress a = address(rc);
        PageRequest page = PageRequest.parse(rc);
        if (page.hasCursor()) throw BusError.badRequest("pagination.key must decode to a nonnegative integer");
        accounts.balances(a.bytes(), page.offset(), page.limit())
                .onSuccess(b -> {
                    JsonArray rows = new JsonArray();
                    for (AccountStore.Balance x : b.page().rows())
                        rows.add(new JsonObject()
                                .put("token", Hex.prefixed(x.token()))
                                .put("denom", x.denom())
                                .put("amount", x.amount()));
                    Responses.json(
                            rc,
                            new JsonObject()
                                    .put("balances", rows)
                                    .put("height", string(b.height()))
                                    .put(
                                            "pagination",
                                            PageResponse.offset(
                                                    page,
                                                    b.page().more(),
                                                    b.page().total())));
                })
                .onFailure(rc::fail);
    }

    private void transfers(RoutingContext rc) {
        AccountAddress a = address(rc);
        AccountStore.Direction direction = direction(rc);
        if (CsvExport.wanted(rc)) {
            TransferCsv.export(
                    rc,
                    blocks,
                    accounts,
                    richList,
                    vm,
                    prefix,
                    a,
                    direction,
                    rc.queryParams().get("token"),
                    export);
            return;
        }
        transferPage(
                rc,
                blocks,
                accounts,
                richList,
                vm,
                prefix,
                a.bytes(),
                direction,
                rc.queryParams().get("token"));
    }

    /**
     * A keyset page of transfers of an account (with {@code direction}) or of a token (account null), filtered by
     * {@code token} (a denom or contract, resolved per VM), {@code from_height} and {@code to_height}; newest first by
     * default, cursor {@code {"sequence","transfer_index"}}; {@code total} is not counted ("0").
     */
    static void transferPage(
            RoutingContext rc,
            BlockStore blocks,
            AccountStore accounts,
            RichListStore richList,
            ChainConfig.Vm vm,
            String prefix,
            byte[] account,
            AccountStore.Direction direction,
            String token) {
        if (account == null && (token == null || token.isBlank()))
            throw BusError.invalidValue("denom", String.valueOf(token), "invalid denom");
        PageRequest page = PageRequest.parse(rc);
        if (page.offset() != 0)
            throw BusError.badRequest("pagination.offset is not supported on transfers: follow next_key");
        transferQuery(rc, blocks, richList, vm, prefix, account, direction, token, page, page.limit())
                .compose(q -> q == null
                        // a bank denom no ERC-20 is known for: no transfer row can name it
                        ? Future.succeededFuture(new AccountStore.TransferPage(java.util.List.of(), false))
                        : accounts.transfers(q))
                .onSuccess(p -> {
                    JsonArray rows = new JsonArray();
                    for (AccountStore.Transfer x : p.rows()) rows.add(json(x, account));
                    JsonObject next = null;
                    if (p.more() && !p.rows().isEmpty()) {
                        AccountStore.Transfer last = p.rows().get(p.rows().size() - 1);
                        next = new JsonObject().put("sequence", last.sequence()).put("transfer_index", last.index());
                    }
                    Responses.json(
                            rc,
                            new JsonObject()
                                    .put("transfers", rows)
                                    .put("pagination", PageResponse.cursor(next, 0, page)));
                })
                .onFailure(rc::fail);
    }

    /**
     * The store query of a transfers request (its cursor, token and height range resolved), or null when the token
     * names nothing a transfer row can hold.
     */
    static Future<AccountStore.TransferQuery> transferQuery(
            RoutingContext rc,
            BlockStore blocks,
            RichListStore richList,
            ChainConfig.Vm vm,
            String prefix,
            byte[] account,
            AccountStore.Direction direction,
            String token,
            PageRequest page,
            int limit) {
        Long boundSeq = page.hasCursor() ? page.cursorLong("sequence") : null;
        Integer boundIndex =
                page.hasCursor() ? (int) Math.min(Integer.MAX_VALUE, page.cursorLong("transfer_index")) : null;
        Future<Long[]> range = TimeRange.heights(rc, blocks);
        Future<byte[]> tokenBytes = token == null || token.isBlank()
                ? Future.succeededFuture(null)
                : RichListApi.token(richList, vm, prefix, token).map(b -> b == null ? new byte[0] : b);
        return Future.all(range, tokenBytes)
                .map(v -> tokenBytes.result() != null && tokenBytes.result().length == 0
                        ? null
                        : new AccountStore.TransferQuery(
                                account,
                                direction,
                                tokenBytes.result(),
                                range.result()[0],
                                range.result()[1],
                                page.reverse(),
                                boundSeq,
                                boundIndex,
                                limit));
    }

    private static JsonObject json(AccountStore.Transfer x, byte[] account) {
        JsonObject o = new JsonObject()
                .put("height", Long.toString(x.height()))
                .put("timestamp", Rfc3339.nanos(x.timeNs()))
                .put("txhash", Hex.upper(x.txHash()))
                .put("index", x.index())
                .put("kind", kind(x.kind()))
                .put("token", Hex.prefixed(x.token()))
                .put("from", Hex.prefixed(x.from()))
                .put("to", Hex.prefixed(x.to()))
                .put("amount", x.amount());
        if (account != null) {
            o.put("direction", direction(x, account));
        }
        return o;
    }

    /** {@code self}, {@code out} or {@code in}: the transfer as the account sees it. */
    static String direction(AccountStore.Transfer x, byte[] account) {
        boolean out = java.util.Arrays.equals(x.from(), account);
        boolean in = java.util.Arrays.equals(x.to(), account);
        return out && in ? "self" : out ? "out" : "in";
    }

    static String kind(int code) {
        return switch (code) {
            case 1 -> "erc20";
            case 2 -> "move_fa";
            case 3 -> "cw20";
            default -> "unknown";
        };
    }

    private static AccountStore.Direction direction(RoutingContext rc) {
        String v = rc.queryParams().get("direction");
        if (v == null || v.isBlank()) return AccountStore.Direction.ANY;
        return switch (v.trim().toLowerCase(Locale.ROOT)) {
            case "in" -> AccountStore.Direction.IN;
            case "out" -> AccountStore.Direction.OUT;
            case "all", "any" -> AccountStore.Direction.ANY;
            default -> throw BusError.invalidValue("direction", v, "must be in, out or all");
        };
    }

    private static String string(Long v) {
        return v == null ? null : Long.toString(v);
    }

    private static String time(Long ns) {
        return ns == null ? null : Rfc3339.nanos(ns);
    }
}
