package dev.weft.route;

import dev.weft.bus.BusError;
import dev.weft.route.graph.Edge;
import dev.weft.route.graph.RouteLimits;
import dev.weft.route.json.SkipJson;
import dev.weft.route.registry.Asset;
import dev.weft.route.registry.Chain;
import dev.weft.route.registry.Registry;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Skip Go's discovery endpoints ({@code assets_from_source}, {@code assets_between_chains}, {@code recommend_assets},
 * {@code ibc_origin_assets}; shapes of skip-mev/skip-go {@code docs/swagger.yml}) over one {@link RouteService}. An
 * asset is offered as reachable only when {@link RouteService#compute} itself finds a route to it (one whole unit of the
 * source, the request's limits), so every pair a discovery answer lists is one {@code /route} answers.
 */
final class Discovery {
    /** Most entries of one {@code recommend_assets} or {@code ibc_origin_assets} request: each costs searches. */
    static final int MAX_ENTRIES = 25;

    private Discovery() {}

    /**
     * {@code {source_asset_denom, source_asset_chain_id, allow_multi_tx?=false, include_swaps?=false, swap_venues?,
     * native_only?, include_cw20_assets?, include_evm_assets?}} → {@code {dest_assets: {chain_id: {assets: [Asset]}}}}.
     */
    static JsonObject assetsFromSource(RouteService s, JsonObject body) {
        Registry r = s.registry();
        Asset source = asset(r, RouteRequest.string(body, "source_asset_chain_id"), body, "source_asset_denom");
        boolean multiTx = RouteRequest.bool(body, "allow_multi_tx", false);
        boolean swaps = RouteRequest.bool(body, "include_swaps", false);
        boolean nativeOnly = RouteRequest.bool(body, "native_only", false);
        RouteRequest.bool(body, "include_cw20_assets", false); // no CW20 asset is modelled: nothing to include
        boolean evm = RouteRequest.bool(body, "include_evm_assets", false);
        RouteLimits venues = RouteRequest.limits(new JsonObject().put("swap_venues", body.getValue("swap_venues")));
        RouteLimits limits = new RouteLimits(RouteLimits.NONE.kinds(), swaps, venues.venues(), !multiTx);
        JsonObject out = new JsonObject();
        for (Chain c : r.chains().values()) {
            if (c.isEvmChain() && !evm) continue;
            JsonArray assets = new JsonArray();
            for (Asset a : r.assetsOn(c.chainId())) {
                if (a == source || nativeOnly && !a.isNative() || s.unwrappable(c, a)) continue;
                if (route(s, source, a, limits) != null) assets.add(SkipJson.asset(r, a));
            }
            if (!assets.isEmpty()) out.put(c.chainId(), new JsonObject().put("assets", assets));
        }
        return new JsonObject().put("dest_assets", out);
    }

    /**
     * {@code {source_chain_id, dest_chain_id, allow_multi_tx?=false, include_*?}} →
     * {@code {assets_between_chains: [{asset_on_source, asset_on_dest, txs_required, bridges}]}}: the pairs of one
     * origin (the same asset on both chains) that a transfer-only route moves, with that route's txs and bridges.
     */
    static JsonObject assetsBetweenChains(RouteService s, JsonObject body) {
        Registry r = s.registry();
        Chain from = chain(r, RouteRequest.string(body, "source_chain_id"));
        Chain to = chain(r, RouteRequest.string(body, "dest_chain_id"));
        boolean multiTx = RouteRequest.bool(body, "allow_multi_tx", false);
        boolean noMetadata = RouteRequest.bool(body, "include_no_metadata_assets", false);
        RouteRequest.bool(body, "include_cw20_assets", false);
        RouteRequest.bool(body, "include_evm_assets", false);
        RouteLimits limits = new RouteLimits(RouteLimits.NONE.kinds(), false, null, !multiTx);
        JsonArray out = new JsonArray();
        for (Asset a : r.assetsOn(from.chainId())) {
            if (s.unwrappable(from, a) || !noMetadata && a.symbol() == null) continue;
            for (Asset b : r.assetsOn(to.chainId())) {
                if (a == b || !sameOrigin(a, b) || s.unwrappable(to, b)) continue;
                ComputedRoute route = route(s, a, b, limits);
                if (route == null) continue;
                out.add(new JsonObject()
                        .put("asset_on_source", SkipJson.asset(r, a))
                        .put("asset_on_dest", SkipJson.asset(r, b))
                        .put("txs_required", route.path().txsRequired())
                        .put("bridges", bridges(route)));
            }
        }
        return new JsonObject().put("assets_between_chains", out);
    }

    /**
     * {@code {requests: [{source_asset_denom, source_asset_chain_id, dest_chain_id, reason?}]}} →
     * {@code {recommendation_entries: [{recommendations: [{asset, reason}], error}]}}, one entry per request: the form of
     * the source asset on the destination chain that a transfer-only route reaches, {@code BASE_TOKEN} when the
     * destination is its origin chain, else {@code DIRECT} (fewest operations, then fewest txs). No pool depth is read
     * for {@code MOST_LIQUID}: asking for it (or {@code UNKNOWN}) gets the entry's error.
     */
    static JsonObject recommendAssets(RouteService s, JsonObject body) {
        Registry r = s.registry();
        JsonArray requests = array(body, "requests");
        JsonArray entries = new JsonArray();
        for (int i = 0; i < requests.size(); i++) {
            if (!(requests.getValue(i) instanceof JsonObject q))
                throw BusError.badRequest("requests[" + i + "] must be an object");
            Asset source = asset(r, RouteRequest.string(q, "source_asset_chain_id"), q, "source_asset_denom");
            Chain dest = chain(r, RouteRequest.string(q, "dest_chain_id"));
            Object reason = q.getValue("reason");
            if (reason != null && !(reason instanceof String s2 && REASONS.contains(s2))) {
                throw BusError.badRequest("requests[" + i + "].reason must be one of " + String.join(", ", REASONS));
            }
            JsonObject found = recommendation(s, source, dest);
            JsonObject entry = new JsonObject();
            if (found != null && (reason == null || reason.equals(found.getString("reason")))) {
                entry.put("recommendations", new JsonArray().add(found)).putNull("error");
            } else {
                entry.put("recommendations", new JsonArray())
                        .put("error", new JsonObject().put("message", "no recommendation found"));
            }
            entries.add(entry);
        }
        return new JsonObject().put("recommendation_entries", entries);
    }

    private static final List<String> REASONS = List.of("UNKNOWN", "MOST_LIQUID", "BASE_TOKEN", "DIRECT");

    private static JsonObject recommendation(RouteService s, Asset source, Chain dest) {
        Registry r = s.registry();
        RouteLimits limits = new RouteLimits(RouteLimits.NONE.kinds(), false, null, false);
        Asset best = null;
        ComputedRoute bestRoute = null;
        for (Asset b : r.assetsOn(dest.chainId())) {
            if (b == source || !sameOrigin(source, b) || s.unwrappable(dest, b)) continue;
            ComputedRoute route = route(s, source, b, limits);
            if (route == null) continue;
            if (b.isNative())
                return new JsonObject().put("asset", SkipJson.asset(r, b)).put("reason", "BASE_TOKEN");
            if (bestRoute == null || shorter(route, bestRoute)) {
                best = b;
                bestRoute = route;
            }
        }
        return best == null
                ? null
                : new JsonObject().put("asset", SkipJson.asset(r, best)).put("reason", "DIRECT");
    }

    private static boolean shorter(ComputedRoute a, ComputedRoute b) {
        int ops = Integer.compare(a.path().edges().size(), b.path().edges().size());
        return ops != 0 ? ops < 0 : a.path().txsRequired() < b.path().txsRequired();
    }

    /**
     * {@code {assets: [{denom, chain_id}]}} → {@code {origin_assets: [{asset, asset_found}]}}: each asset's origin (the
     * chain and denom its trace leads back to) as the registry lists it; {@code asset} null and {@code asset_found}
     * false when the registry knows neither the asset nor its origin.
     */
    static JsonObject ibcOriginAssets(RouteService s, JsonObject body) {
        Registry r = s.registry();
        JsonArray assets = array(body, "assets");
        JsonArray out = new JsonArray();
        for (int i = 0; i < assets.size(); i++) {
            if (!(assets.getValue(i) instanceof JsonObject q))
                throw BusError.badRequest("assets[" + i + "] must be an object {denom, chain_id}");
            String chainId = RouteRequest.string(q, "chain_id");
            String denom = RouteRequest.string(q, "denom");
            Asset a = r.chain(chainId) == null ? null : r.resolve(chainId, denom);
            Asset origin = a == null ? null : r.asset(a.originChainId(), a.originDenom());
            out.add(
                    origin == null
                            ? new JsonObject().putNull("asset").put("asset_found", false)
                            : new JsonObject()
                                    .put("asset", SkipJson.asset(r, origin))
                                    .put("asset_found", true));
        }
        return new JsonObject().put("origin_assets", out);
    }

    // ---- helpers ----

    /** The route {@code /route} gives for one whole unit of {@code from} within {@code limits}, or null. */
    static ComputedRoute route(RouteService s, Asset from, Asset to, RouteLimits limits) {
        try {
            return s.compute(new RouteRequest(
                    BigInteger.TEN.pow(from.decimals()),
                    from.chainId(),
                    from.denom(),
                    to.chainId(),
                    to.denom(),
                    true,
                    null,
                    false,
                    limits));
        } catch (BusError e) {
            return null;
        }
    }

    private static boolean sameOrigin(Asset a, Asset b) {
        return a.originChainId().equals(b.originChainId()) && a.originDenom().equals(b.originDenom());
    }

    /** Skip's bridge types of a route's transfers, in order of first use. */
    private static JsonArray bridges(ComputedRoute route) {
        Set<String> out = new LinkedHashSet<>();
        for (Edge e : route.path().edges()) {
            switch (e.kind()) {
                case IBC -> out.add("IBC");
                case OP_DEPOSIT, OP_WITHDRAW -> out.add("OPINIT");
                case LAYER_ZERO -> out.add("LAYER_ZERO");
                case SWAP -> {}
            }
        }
        return new JsonArray(new ArrayList<>(out));
    }

    private static Chain chain(Registry r, String id) {
        Chain c = r.chain(id);
        if (c == null) throw BusError.notFound("chain " + id + " is not supported");
        return c;
    }

    private static Asset asset(Registry r, String chainId, JsonObject body, String key) {
        chain(r, chainId);
        String denom = RouteRequest.string(body, key);
        Asset a = r.resolve(chainId, denom);
        if (a == null) throw BusError.notFound("asset " + denom + " is not supported on " + chainId);
        return a;
    }

    private static JsonArray array(JsonObject body, String key) {
        if (body == null) throw BusError.badRequest("request body must be a JSON object");
        if (!(body.getValue(key) instanceof JsonArray a)) throw BusError.badRequest(key + " must be an array");
        if (a.size() > MAX_ENTRIES)
            throw BusError.badRequest(key + " has " + a.size() + " entries, at most " + MAX_ENTRIES);
        return a;
    }
}
