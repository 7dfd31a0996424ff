package dev.weft.api;

import dev.weft.bus.BusError;
import dev.weft.chain.AccountAddress;
import dev.weft.chain.Hex;
import dev.weft.model.nft.NftAddresses;
import dev.weft.runtime.NodeContext;
import dev.weft.store.SearchStore;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import java.util.Locale;

/**
 * Weft's search box, {@code GET /indexer/search/v1?q=}: what an explorer's one input may name, typed: a block height,
 * a tx hash (Cosmos upper hex or EVM 0x form, any case), an account (bech32 or hex). Only what is indexed is found; at
 * most {@link #MAX} results.
 */
public final class SearchApi implements ApiModule {
    static final int MAX = 20;

    private final SearchStore store;
    private final String prefix;

    public SearchApi(NodeContext ctx) {
        this.store = new SearchStore(ctx.pool());
        this.prefix = ctx.config().chain().bech32Prefix();
    }

    @Override
    public void mount(Router router) {
        router.get("/indexer/search/v1").handler(this::search);
    }

    @Override
    public String openApiFragment() {
        return "openapi/search.json";
    }

    private void search(RoutingContext rc) {
        String raw = rc.queryParams().get("q");
        String q = raw == null ? "" : raw.trim();
        if (q.isEmpty()) throw BusError.invalidValue("q", String.valueOf(raw), "must not be empty");
        Long height = null;
        if (q.chars().allMatch(Character::isDigit)) {
            try {
                long h = IndexerParams.wholeNumber(q);
                if (h >= 1) height = h;
            } catch (NumberFormatException e) {
                // too many digits for a height: nothing of that kind
            }
        }
        byte[] hash = Hex.isHex(q, 32) ? Hex.decode(q) : null;
        byte[] address = null;
        try {
            AccountAddress a = AccountAddress.parse(IndexerParams.fullLengthHex(q), prefix);
            boolean bech32 = q.toLowerCase(Locale.ROOT).startsWith(prefix + "1");
            address = (bech32 ? a : NftAddresses.narrow(a)).bytes();
        } catch (RuntimeException e) {
            // not an address
        }
        if (height == null && hash == null && address == null) {
            Responses.json(rc, new JsonObject().put("results", new JsonArray()));
            return;
        }
        store.search(height, hash, address, MAX)
                .onSuccess(hits -> {
                    JsonArray out = new JsonArray();
                    for (SearchStore.Hit h : hits) {
                        JsonObject o = new JsonObject().put("type", h.kind());
                        switch (h.kind()) {
                            case "block" -> o.put("height", Long.toString(h.height()));
                            case "tx" -> o.put("hash", Hex.upper(h.bytes())).put("height", Long.toString(h.height()));
                            case "evm_tx" ->
                                o.put("hash", Hex.prefixed(h.bytes())).put("height", Long.toString(h.height()));
                            default -> {
                                AccountAddress a = AccountAddress.of(h.bytes());
                                o.put("address", a.bech32(prefix)).put("hex", Hex.prefixed(h.bytes()));
                            }
                        }
                        out.add(o);
                    }
                    Responses.json(rc, new JsonObject().put("results", out));
                })
                .onFailure(rc::fail);
    }
}
