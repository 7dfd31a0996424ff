package dev.weft.route;

import dev.weft.bus.BusError;
import dev.weft.chain.AccountAddress;
import dev.weft.chain.CosmosTx;
import dev.weft.config.RouteConfig;
import dev.weft.route.graph.Edge;
import dev.weft.route.graph.RouteCost;
import dev.weft.route.graph.RouteGraph;
import dev.weft.route.graph.RouteLimits;
import dev.weft.route.graph.RouteSearch;
import dev.weft.route.json.RegistryJson;
import dev.weft.route.json.SkipJson;
import dev.weft.route.live.MarketState;
import dev.weft.route.live.VenueState;
import dev.weft.route.msgs.Abi;
import dev.weft.route.msgs.AddressRules;
import dev.weft.route.msgs.CosmosMsgs;
import dev.weft.route.msgs.OperationsDiff;
import dev.weft.route.registry.Asset;
import dev.weft.route.registry.Chain;
import dev.weft.route.registry.Denoms;
import dev.weft.route.registry.Erc20Wrapper;
import dev.weft.route.registry.Registry;
import dev.weft.route.registry.RegistryLoader;
import dev.weft.route.registry.SwapVenue;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.math.BigInteger;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The routing API over one immutable registry version and its precomputed graph: route, msgs, op-hook, chains and
 * assets. Stateless per request and safe to share between threads; a registry reload builds a new service.
 */
public final class RouteService {
    private final RouteGraph graph;
    private final Registry registry;
    private final RegistryJson shared;
    private final RouteConfig config;
    private final Clock clock;
    private final MarketState market;
    /** The graph with the pools of venues whose state is too old (null when none is): tells "stale" from "no route". */
    private final RouteGraph staleGraph;

    public RouteService(Registry registry, RouteConfig config, Clock clock) {
        this.registry = registry;
        this.config = config;
        this.clock = clock;
        this.graph = new RouteGraph(registry, config);
        this.shared = new RegistryJson(registry);
        this.market = MarketState.EMPTY;
        this.staleGraph = null;
    }

    private RouteService(Registry base, RouteConfig config, Clock clock, MarketState market) {
        java.time.Instant now = clock.instant();
        this.registry = market.apply(base, now, config.maxStateAge(), false);
        this.config = config;
        this.clock = clock;
        this.graph = new RouteGraph(registry, config);
        this.shared = new RegistryJson(this.registry);
        this.market = market;
        this.staleGraph = market.anyStale(now, config.maxStateAge())
                ? new RouteGraph(market.apply(base, now, config.maxStateAge(), true), config)
                : null;
    }

    /**
     * The service over a registry with the market state read from the chains: live venues' pools (those read within
     * {@code route.max_state_age}) and oracle prices.
     */
    public static RouteService withMarket(Registry base, RouteConfig config, Clock clock, MarketState market) {
        return new RouteService(base, config, clock, market);
    }

    /** Loads the configured registry files and builds the graph (blocking: file reads). */
    public static RouteService load(RouteConfig config, Clock clock) {
        return new RouteService(RegistryLoader.load(config.registries(), config.finalizationPeriods()), config, clock);
    }

    public Registry registry() {
        return registry;
    }

    public RouteGraph graph() {
        return graph;
    }

    // ---- /v2/fungible/route ----

    public JsonObject route(JsonObject body) {
        return compute(RouteRequest.parse(body)).json();
    }

    public ComputedRoute compute(RouteRequest req) {
        Asset source = asset(req.sourceChainId(), req.sourceDenom(), "source");
        Asset dest = asset(req.destChainId(), req.destDenom(), "destination");
        if (source == dest) throw BusError.badRequest("the source and destination assets are the same");
        boolean evmSigned = evmSigned(req, source);
        RouteSearch.Result found = search(graph, source, dest, req, req.limits());
        if (found.path() == null && staleGraph != null) {
            RouteSearch.Result old = search(staleGraph, source, dest, req, req.limits());
            if (old.path() != null) throw stale(old.path());
        }
        if (found.path() == null) {
            String between =
                    "from " + source.chainId() + " " + source.denom() + " to " + dest.chainId() + " " + dest.denom();
            if (req.limits().singleTx()) {
                RouteSearch.Result multi =
                        search(graph, source, dest, req, req.limits().withMultiTx());
                if (multi.path() != null) {
                    throw BusError.notFound("no single-tx routes found " + between + " (the route takes "
                            + multi.path().txsRequired() + " txs): set allow_multi_tx to true");
                }
            }
            if (req.isOpWithdraw() && found.anyRoute()) {
                throw BusError.badRequest("route does not support OP withdraw: no route " + between
                        + " withdraws through an OPinit bridge");
            }
            throw BusError.notFound("no route found " + between);
        }
        return render(req, source, dest, evmSigned, found.path());
    }

    /** The Skip route of a found path: refused on stale pool state or, without allow_unsafe, a high price impact. */
    private ComputedRoute render(
            RouteRequest req, Asset source, Asset dest, boolean evmSigned, dev.weft.route.graph.RoutePath path) {
        VenueState state = swapState(path);
        if (state != null && MarketState.stale(state, clock.instant(), config.maxStateAge())) throw stale(path);
        ComputedRoute route = RouteBuilder.build(graph, shared, req, source, dest, evmSigned, path);
        if (state != null) route.json().put("swap_state_height", Long.toString(state.height()));
        if (!req.allowUnsafe()
                && path.swapQuote() != null
                && path.swapQuote().impactPercent().compareTo(RouteBuilder.IMPACT_WARNING_PERCENT) > 0) {
            String impact = RouteBuilder.percent(path.swapQuote().impactPercent());
            throw new BusError(
                    400,
                    "swap price impact of " + impact + "% is above " + RouteBuilder.IMPACT_WARNING_PERCENT
                            + "% and allow_unsafe is false",
                    new JsonArray()
                            .add(BusError.errorInfo(
                                    "BAD_PRICE_ERROR", new JsonObject().put("price_impact_percent", impact))));
        }
        return route;
    }

    /** Whether the first tx is an EVM tx: an EVM source chain, or a minievm source asset named by its ERC-20 contract. */
    private boolean evmSigned(RouteRequest req, Asset source) {
        Chain sourceChain = registry.chain(source.chainId());
        return sourceChain.isEvmChain()
                || sourceChain.hasEvm()
                        && !req.sourceDenom().equals(source.denom())
                        && req.sourceDenom().regionMatches(true, 0, "0x", 0, 2);
    }

    /**
     * The route among a request's candidates (not only the best: an exact-out quote's or one {@code /routes} offered) whose
     * operations are exactly {@code operations}, or null. Candidates are rendered best first, at most
     * {@value #MATCHED_CANDIDATES} of them.
     */
    private ComputedRoute matching(RouteRequest req, JsonArray operations) {
        Asset source = asset(req.sourceChainId(), req.sourceDenom(), "source");
        Asset dest = asset(req.destChainId(), req.destDenom(), "destination");
        List<RouteSearch.Candidate> all = new ArrayList<>(
                RouteSearch.candidates(graph, source, dest, req.amountIn(), config.maxHops(), req.limits(), cost()));
        all.sort(RouteSearch.BEST_FIRST);
        int tried = 0;
        RouteSearch.OpWithdrawPolicy policy =
                req.isOpWithdraw() ? RouteSearch.OpWithdrawPolicy.FORCE : RouteSearch.OpWithdrawPolicy.AVOID;
        boolean withoutWithdrawal = all.stream().anyMatch(c -> !c.withdraws());
        for (RouteSearch.Candidate c : all) {
            if (!RouteSearch.admitted(c, policy, withoutWithdrawal)) continue;
            if (c.edges().size() != operations.size()) continue;
            if (++tried > MATCHED_CANDIDATES) break;
            ComputedRoute r;
            try {
                r = render(req, source, dest, evmSigned(req, source), RouteSearch.path(graph, c, req.amountIn()));
            } catch (BusError e) {
                continue;
            }
            if (OperationsDiff.firstDifference(
                            "operations", operations, r.json().getJsonArray("operations"))
                    == null) return r;
        }
        return null;
    }

    private static final int MATCHED_CANDIDATES = 64;

    /** The best route of a request within {@code limits}: exact-in, or exact-out when it names only amount_out. */
    private RouteSearch.Result search(RouteGraph g, Asset source, Asset dest, RouteRequest req, RouteLimits limits) {
        RouteSearch.OpWithdrawPolicy policy =
                req.isOpWithdraw() ? RouteSearch.OpWithdrawPolicy.FORCE : RouteSearch.OpWithdrawPolicy.AVOID;
        if (req.exactOut() != null) {
            return RouteSearch.findExactOut(g, source, dest, req.exactOut(), policy, config.maxHops(), limits, cost());
        }
        return RouteSearch.find(g, source, dest, req.amountIn(), policy, config.maxHops(), limits, cost());
    }

    /** The cost model routes are chosen by ({@code route.cost.*}). */
    public RouteCost cost() {
        return new RouteCost(config.extraTxBps(), config.minuteBps());
    }

    /** The state the swap of a path was quoted on (null without a swap on a live venue). */
    private VenueState swapState(dev.weft.route.graph.RoutePath path) {
        for (Edge e : path.edges()) {
            if (e.isSwap() && e.venue().live())
                return market.venues().get(e.venue().chainId() + "/" + e.venue().name());
        }
        return null;
    }

    private BusError stale(dev.weft.route.graph.RoutePath path) {
        Edge swap = path.edges().stream().filter(Edge::isSwap).findFirst().orElseThrow();
        VenueState s =
                market.venues().get(swap.venue().chainId() + "/" + swap.venue().name());
        long age =
                s == null ? -1 : Duration.between(s.readAt(), clock.instant()).toSeconds();
        return new BusError(
                503,
                "swap quotes on " + swap.venue().name() + " (" + swap.venue().chainId()
                        + ") are unavailable: its pool state "
                        + (s == null ? "has not been read" : "was read at height " + s.height() + ", " + age + "s ago")
                        + ", older than route.max_state_age ("
                        + config.maxStateAge().toSeconds() + "s)");
    }

    private ComputedRoute computeOrNull(RouteRequest req) {
        try {
            return compute(req);
        } catch (BusError e) {
            return null;
        }
    }

    private Asset asset(String chainId, String denom, String role) {
        if (registry.chain(chainId) == null) throw BusError.notFound(role + " chain " + chainId + " is not supported");
        Asset a = registry.resolve(chainId, denom);
        if (a == null) throw BusError.notFound(role + " asset " + denom + " is not supported on " + chainId);
        return a;
    }

    // ---- /v2/fungible/msgs ----

    public JsonObject msgs(JsonObject body) {
        MsgsRequest m = MsgsRequest.parse(body);
        RouteRequest asked = m.route();
        boolean withdraw = m.withdrawsThroughOpBridge(
                id -> registry.chain(id) != null && registry.chain(id).isRollup());
        RouteRequest again = new RouteRequest(
                asked.amountIn(),
                asked.sourceChainId(),
                asked.sourceDenom(),
                asked.destChainId(),
                asked.destDenom(),
                true,
                asked.goFast(),
                withdraw,
                asked.limits());
        ComputedRoute route = compute(again);
        // the operations are the route's, or differ from it only in the swap estimates of pools that have moved since
        List<BigInteger> amounts = null;
        if (OperationsDiff.firstDifference(
                        "operations", m.operations(), route.json().getJsonArray("operations"))
                != null) {
            // another route for the same amount, exactly as quoted (an exact-out quote's input, a /routes alternative)
            ComputedRoute other = matching(again, m.operations());
            if (other != null) route = other;
        }
        if (OperationsDiff.firstDifference(
                        "operations", m.operations(), route.json().getJsonArray("operations"))
                != null) {
            String diff = SwapEstimates.difference(m.operations(), route);
            boolean exact = false;
            RouteLimits used = diff == null ? null : m.limitsOfOperations();
            if (used != null && !used.equals(asked.limits())) {
                // the route was asked with restrictions (bridges, allow_swaps, swap_venues, allow_multi_tx) that the
                // msgs
                // request does not repeat: the best route within what its operations use is that route
                ComputedRoute within = computeOrNull(new RouteRequest(
                        again.amountIn(),
                        again.sourceChainId(),
                        again.sourceDenom(),
                        again.destChainId(),
                        again.destDenom(),
                        true,
                        again.goFast(),
                        withdraw,
                        used));
                if (within != null && SwapEstimates.difference(m.operations(), within) == null) {
                    route = within;
                    diff = null;
                    exact = OperationsDiff.firstDifference(
                                    "operations", m.operations(), within.json().getJsonArray("operations"))
                            == null;
                }
            }
            if (diff != null) throw BusError.badRequest("operations do not match the route for this request: " + diff);
            if (!exact) amounts = SwapEstimates.accepted(m.operations(), route, m.amountOut(), m.slippagePercent());
        }
        if (amounts == null
                && m.amountOut() != null
                && !m.amountOut().toString().equals(route.json().getString("amount_out"))) {
            throw BusError.badRequest("amount_out is \"" + m.amountOut() + "\", the route gives \""
                    + route.json().getString("amount_out") + "\"");
        }
        List<AccountAddress> addresses = addresses(route, m.addressList());
        String hookData = "";
        if (route.requiresOpHook()) {
            if (m.signedOpHook() == null) {
                throw BusError.badRequest(
                        "signed_op_hook is required: the route has required_op_hook true (get the hook from /op-hook and sign it)");
            }
            hookData = checkedHook(route, addresses, m.signedOpHook());
        } else if (m.signedOpHook() != null) {
            throw BusError.badRequest("signed_op_hook is only accepted when the route has required_op_hook true");
        }
        Duration timeout = m.timeoutSeconds() != null ? Duration.ofSeconds(m.timeoutSeconds()) : config.ibcTimeout();
        return MsgsBuilder.build(
                graph,
                route,
                amounts != null ? amounts : route.path().amounts(),
                addresses,
                m.slippagePercent(),
                timeout,
                clock.instant(),
                hookData);
    }

    private List<AccountAddress> addresses(ComputedRoute route, List<String> given) {
        List<String> chains = route.chainIds();
        if (given.size() != chains.size()) {
            throw BusError.badRequest("address_list has " + given.size() + " address" + (given.size() == 1 ? "" : "es")
                    + ", the route needs " + chains.size() + " (one per required_chain_addresses entry: "
                    + String.join(", ", chains) + ")");
        }
        List<AccountAddress> out = new ArrayList<>();
        for (int i = 0; i < chains.size(); i++) {
            out.add(address(registry.chain(chains.get(i)), given.get(i), "address_list[" + i + "]"));
        }
        return out;
    }

    private AccountAddress address(Chain chain, String s, String field) {
        AccountAddress a = AddressRules.parse(chain, s);
        if (a == null) {
            throw BusError.badRequest(field + " \"" + s + "\" is not a valid address for " + chain.chainId()
                    + " (expected " + AddressRules.expected(chain) + ")");
        }
        return a;
    }

    private String checkedHook(ComputedRoute route, List<AccountAddress> addresses, MsgsRequest.SignedOpHook hook) {
        int op = wrapperDeposit(route);
        int visit = route.toVisit()[op];
        Chain l2 = registry.chain(route.chainIds().get(visit));
        AccountAddress signer = AddressRules.parse(l2, hook.signer());
        if (signer == null || !signer.equals(addresses.get(visit))) {
            throw BusError.badRequest("signed_op_hook.signer must be the recipient on " + l2.chainId() + " ("
                    + AddressRules.display(l2, addresses.get(visit)) + ")");
        }
        try {
            CosmosTx.decodeBase64(hook.hook());
        } catch (RuntimeException e) {
            throw BusError.badRequest("signed_op_hook.hook is not a base64 signed Cosmos tx");
        }
        return hook.hook();
    }

    private static int wrapperDeposit(ComputedRoute route) {
        List<Edge> edges = route.path().edges();
        for (int i = 0; i < edges.size(); i++) if (edges.get(i).wrapper() != null) return i;
        throw new IllegalStateException("no OP hook deposit in the route");
    }

    // ---- /op-hook ----

    public JsonObject opHook(JsonObject body) {
        OpHookRequest h = OpHookRequest.parse(body);
        Asset source = asset(h.sourceChainId(), h.sourceDenom(), "source");
        ComputedRoute route = compute(new RouteRequest(
                BigInteger.TEN.pow(source.decimals()),
                h.sourceChainId(),
                h.sourceDenom(),
                h.destChainId(),
                h.destDenom(),
                true,
                null,
                false,
                RouteLimits.NONE));
        if (!route.requiresOpHook()) {
            throw BusError.badRequest("route does not support OP hooks: the route from "
                    + route.source().chainId() + " " + route.source().denom() + " to "
                    + route.dest().chainId() + " " + route.dest().denom()
                    + " has no OPinit transfer that converts to an ERC-20 on arrival");
        }
        address(registry.chain(route.source().chainId()), h.sourceAddress(), "source_address");
        Chain destChain = registry.chain(route.dest().chainId());
        AccountAddress dest = address(destChain, h.destAddress(), "dest_address");
        if (dest.length() != 20)
            throw BusError.badRequest("dest_address must be a 20-byte account on " + destChain.chainId());
        Edge deposit = route.path().edges().get(wrapperDeposit(route));
        byte[] input = Abi.call(deposit.wrapper().hookFunction(), new Abi.Address(dest.bytes()));
        CosmosMsgs.Msg call = CosmosMsgs.evmCall(
                AddressRules.display(destChain, dest), deposit.wrapper().contract(), input);
        return new JsonObject()
                .put("chain_id", deposit.wrapper().chainId())
                .put("hook", new JsonArray().add(call.json()));
    }

    // ---- /v2/info/chains and /v2/fungible/assets ----

    /**
     * {@code {chain_ids?: [..], include_evm?: bool, only_testnets?: bool}} → {@code {chains: [Chain]}}: mainnets unless
     * {@code only_testnets} is true, as Skip answers (its client merges a default call and an {@code only_testnets} one).
     */
    public JsonObject chains(JsonObject query) {
        Set<String> ids = ids(query);
        boolean includeEvm = query.getBoolean("include_evm", false);
        boolean testnets = query.getBoolean("only_testnets", false);
        JsonArray out = new JsonArray();
        for (Chain c : registry.chains().values()) {
            if (!selected(c, ids, includeEvm, testnets)) continue;
            out.add(SkipJson.chain(registry, c));
        }
        return new JsonObject().put("chains", out);
    }

    /**
     * {@code {chain_ids?, native_only?, include_evm_assets?, only_testnets?}} →
     * {@code {chain_to_assets_map: {<chain>: {assets: [Asset]}}}}: mainnets' unless {@code only_testnets} is true. An
     * ERC-20 form of a rollup's bridged coin (the 18-decimal INIT of minievm rollups) is listed only when the registry
     * names its wrapper contract, through which routes reach it; without one no route can.
     */
    public JsonObject assets(JsonObject query) {
        Set<String> ids = ids(query);
        boolean nativeOnly = query.getBoolean("native_only", false);
        boolean includeEvm = query.getBoolean("include_evm_assets", false);
        boolean testnets = query.getBoolean("only_testnets", false);
        JsonObject map = new JsonObject();
        for (Chain c : registry.chains().values()) {
            if (!selected(c, ids, includeEvm, testnets)) continue;
            JsonArray assets = new JsonArray();
            for (Asset a : registry.assetsOn(c.chainId())) {
                if (nativeOnly && !a.isNative() || unwrappable(c, a)) continue;
                assets.add(SkipJson.listedAsset(registry, a));
            }
            if (!assets.isEmpty() || ids != null) map.put(c.chainId(), new JsonObject().put("assets", assets));
        }
        return new JsonObject().put("chain_to_assets_map", map);
    }

    /** {@code {only_testnets?}} → {@code {venues: [SwapVenue]}}: the venues of mainnets unless only_testnets. */
    public JsonObject venues(JsonObject query) {
        boolean testnets = query.getBoolean("only_testnets", false);
        JsonArray out = new JsonArray();
        for (SwapVenue v : registry.venues())
            if (registry.chain(v.chainId()).testnet() == testnets) out.add(SkipJson.venue(v));
        return new JsonObject().put("venues", out);
    }

    /** {@code {bridges: [{id, name, logo_uri}]}}: the bridge types the registry's routes use. */
    public JsonObject bridges(JsonObject query) {
        JsonArray out = new JsonArray();
        if (!registry.channels().isEmpty()) out.add(bridge("IBC", "IBC"));
        if (registry.chains().values().stream().anyMatch(Chain::isRollup)) out.add(bridge("OPINIT", "OPInit"));
        if (!registry.lanes().isEmpty()) out.add(bridge("LAYER_ZERO", "LayerZero"));
        return new JsonObject().put("bridges", out);
    }

    private static JsonObject bridge(String id, String name) {
        return new JsonObject().put("id", id).put("name", name).putNull("logo_uri");
    }

    /**
     * {@code POST /v2/fungible/msgs_direct}: a route request plus {@code chain_ids_to_addresses} (an address for every
     * chain the route may need) → {@code {msgs, txs, min_amount_out, route}}, the route and its msgs in one call.
     */
    public JsonObject msgsDirect(JsonObject body) {
        ComputedRoute route = compute(RouteRequest.parse(body));
        if (!(body.getValue("chain_ids_to_addresses") instanceof JsonObject byChain)) {
            throw BusError.badRequest("chain_ids_to_addresses is required: an object of chain id → address");
        }
        JsonArray addresses = new JsonArray();
        for (String chain : route.chainIds()) {
            if (!(byChain.getValue(chain) instanceof String a) || a.isBlank()) {
                throw BusError.badRequest("chain_ids_to_addresses has no address for " + chain
                        + " (the route needs one for each of " + String.join(", ", route.chainIds()) + ")");
            }
            addresses.add(a);
        }
        JsonObject routeJson = route.json();
        JsonObject msgsBody = body.copy()
                .put("address_list", addresses)
                .put("amount_in", routeJson.getString("amount_in"))
                .put("operations", routeJson.getJsonArray("operations").copy())
                .put("amount_out", routeJson.getString("amount_out"));
        msgsBody.remove("chain_ids_to_addresses");
        JsonObject msgs = msgs(msgsBody);
        return new JsonObject()
                .put("msgs", msgs.getJsonArray("msgs"))
                .put("txs", msgs.getJsonArray("txs"))
                .put("min_amount_out", msgs.getString("min_amount_out"))
                .put("route", routeJson);
    }

    private static Set<String> ids(JsonObject query) {
        JsonArray a = query.getJsonArray("chain_ids");
        if (a == null || a.isEmpty()) return null;
        Set<String> out = new HashSet<>();
        for (Object o : a) out.add(String.valueOf(o));
        return out;
    }

    private static boolean selected(Chain c, Set<String> ids, boolean includeEvm, boolean testnets) {
        if (ids != null) return ids.contains(c.chainId());
        if (c.isEvmChain() && !includeEvm) return false;
        return testnets == c.testnet();
    }

    /**
     * An {@code evm/} token of a minievm rollup with the symbol of one of the rollup's OP-bridged coins and more decimals
     * (its ERC-20 wrapper form) for which the registry names no wrapper contract.
     */
    private boolean unwrappable(Chain c, Asset a) {
        if (!"evm".equals(c.vm())
                || !c.isRollup()
                || !a.isNative()
                || !a.denom().startsWith("evm/")) return false;
        for (Erc20Wrapper w : registry.wrappers())
            if (w.chainId().equals(c.chainId()) && w.wrappedDenom().equals(a.denom())) return false;
        for (String l1Denom : c.opBridge().opDenoms()) {
            Asset bridged = registry.asset(c.chainId(), Denoms.l2(c.opBridge().bridgeId(), l1Denom));
            if (bridged != null
                    && bridged.symbol() != null
                    && bridged.symbol().equals(a.symbol())
                    && bridged.decimals() < a.decimals()) return true;
        }
        return false;
    }
}
