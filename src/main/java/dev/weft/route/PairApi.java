package dev.weft.route;

import dev.weft.api.ApiModule;
import dev.weft.api.PageRequest;
import dev.weft.api.PageResponse;
import dev.weft.api.Responses;
import dev.weft.bus.BusError;
import dev.weft.route.registry.Chain;
import dev.weft.route.registry.Denoms;
import dev.weft.route.registry.OpBridge;
import dev.weft.route.registry.Registry;
import dev.weft.route.registry.RegistryLoader;
import dev.weft.runtime.NodeContext;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * kvindexer's {@code indexer.pair} service, {@code GET /indexer/pair/v1/pairs}: the L1 ↔ L2 denom pairs of the indexed
 * chain's OPinit bridge, {@code {"pairs":[{"l1","l2"}],"pagination":{…}}}. The pairs come from the registry (the bridge's
 * {@code op_denoms}, each minted on the rollup as {@link Denoms#l2}), not from the deposits seen so far as kvindexer
 * collected them, so a pair is listed before its first deposit.
 */
public final class PairApi implements ApiModule {
    /** One fungible pair: the L1 denom and the denom the bridge mints for it on the rollup. */
    public record Pair(String l1, String l2) {}

    private final NodeContext ctx;
    private Future<List<Pair>> pairs;

    public PairApi(NodeContext ctx) {
        this.ctx = ctx;
    }

    /**
     * The fungible pairs of {@code chainId}'s OPinit bridge in kvindexer's order (its store's key order: the L2 denom,
     * ascending); none when the registry does not know the chain or the chain has no bridge.
     */
    public static List<Pair> pairsOf(Registry registry, String chainId) {
        Chain chain = registry.chains().get(chainId);
        OpBridge bridge = chain == null ? null : chain.opBridge();
        List<Pair> out = new ArrayList<>();
        if (bridge == null) return out;
        for (String l1 : bridge.opDenoms()) out.add(new Pair(l1, Denoms.l2(bridge.bridgeId(), l1)));
        out.sort(Comparator.comparing(Pair::l2));
        return out;
    }

    @Override
    public void mount(Router router) {
        router.get("/indexer/pair/v1/pairs").handler(this::list);
    }

    @Override
    public String openApiFragment() {
        return "openapi/pairs.json";
    }

    private void list(RoutingContext rc) {
        boolean nonFungible = bool(rc, "is_non_fungible");
        PageRequest page = PageRequest.parse(rc);
        if (page.hasCursor()) throw BusError.badRequest("pagination.key must decode to a nonnegative integer");
        // kvindexer's order (ascending) unless reverse is asked for explicitly: Weft's lists default to newest first,
        // a pair list has no newest
        boolean reverse = bool(rc, "pagination.reverse");
        pairs().onSuccess(all -> {
                    // non-fungible pairs (IBC NFT classes) are collected from NFT transfers by kvindexer: none known
                    // here
                    List<Pair> list = nonFungible ? List.of() : all;
                    if (reverse) {
                        list = new ArrayList<>(list);
                        java.util.Collections.reverse(list);
                    }
                    long from = Math.min(page.offset(), list.size());
                    long to = Math.min(list.size(), from + page.limit());
                    JsonArray rows = new JsonArray();
                    for (Pair p : list.subList((int) from, (int) to))
                        rows.add(new JsonObject().put("l1", p.l1()).put("l2", p.l2()));
                    Responses.json(
                            rc,
                            new JsonObject()
                                    .put("pairs", rows)
                                    .put("pagination", PageResponse.offset(page, to < list.size(), list.size())));
                })
                .onFailure(rc::fail);
    }

    private static boolean bool(RoutingContext rc, String name) {
        String v = rc.queryParams().get(name);
        if (v == null || v.isBlank()) return false;
        return switch (v.trim().toLowerCase(Locale.ROOT)) {
            case "true", "t", "1" -> true;
            case "false", "f", "0" -> false;
            default -> throw BusError.invalidValue(name, v, "must be true or false");
        };
    }

    /** The registry's pairs for the indexed chain, loaded once per API instance (file IO: off the event loop). */
    private Future<List<Pair>> pairs() {
        if (pairs == null) {
            pairs = ctx.vertx()
                    .executeBlocking(() -> pairsOf(
                            RegistryLoader.load(
                                    ctx.config().route().registries(),
                                    ctx.config().route().finalizationPeriods()),
                            ctx.config().chain().chainId()));
            pairs.onFailure(e -> pairs = null);
        }
        return pairs;
    }
}
