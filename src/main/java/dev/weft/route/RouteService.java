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

    private final GasQuote gas;

    public RouteService(Registry registry, RouteConfig config, Clock clock) {
        this(registry, config, clock, EvmGasPrices.NONE);
    }

    RouteService(Registry registry, RouteConfig config, Clock clock, EvmGasPrices evmPrices) {
        this.registry = registry;
        this.config = config;
        this.clock = clock;
        this.graph = new RouteGraph(registry, config);
        this.shared = new RegistryJson(registry);
        this.market = MarketState.EMPTY;
        this.staleGraph = null;
        this.gas = new GasQuote(this.registry, shared, config.gas(), evmPrices);
    }

    private RouteService(Registry base, RouteConfig config, Clock clock, MarketState market, EvmGasPrices evmPrices) {
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
        this.gas = new GasQuote(this.registry, shared, config.gas(), evmPrices);
    }

    /**
     * The service over a registry with the market state read from the chains: live venues' pools (those read within
     * {@code route.max_state_age}) and oracle prices.
     */
    public static RouteService withMarket(Registry base, RouteConfig config, Clock clock, MarketState market) {
        return new RouteService(base, config, clock, market, EvmGasPrices.NONE);
    }

    /** {@link #withMarket} quoting EVM gas with the node's cached {@code eth_gasPrice} where no price is configured. */
    static RouteService withMarket(
            Registry base, RouteConfig config, Clock clock, MarketState market, EvmGasPrices evmPrices) {
        return new RouteService(base, config, clock, market, evmPrices);
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
        ComputedRoute route = RouteBuilder.build(graph, shared, gas, req, source, dest, evmSigned, path);
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
        List<RouteSearch.Candidate> all = new ArrayList<>(RouteSearch.candidates(
                graph,
                source,
                dest,
                req.amountIn(),
                config.maxHops(),
                req.limits(),
                cost(dest, evmSigned(req, source))));
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
        boolean evmSigned = evmSigned(req, source);
        RouteSearch.OpWithdrawPolicy policy =
                req.isOpWithdraw() ? RouteSearch.OpWithdrawPolicy.FORCE : RouteSearch.OpWithdrawPolicy.AVOID;
        if (req.exactOut() != null) {
            return RouteSearch.findExactOut(
                    g, source, dest, req.exactOut(), policy, config.maxHops(), limits, cost(dest, evmSigned));
        }
        return RouteSearch.find(
                g, source, dest, req.amountIn(), policy, config.maxHops(), limits, cost(dest, evmSigned));
    }

    /** The cost model routes are chosen by ({@code route.cost.*}), without its gas term. */
    public RouteCost cost() {
        return new RouteCost(config.extraTxBps(), config.minuteBps());
    }

    /** The cost model for routes to {@code dest}: with the gas of their txs where the USD prices are known. */
    private RouteCost cost(Asset dest, boolean evmSigned) {
        return cost().withGas(gas.term(dest, evmSigned));
    }

    /** The gas quotes of this registry version. */
    GasQuote gas() {
        return gas;
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

    // ---- /v2/fungible/routes (Weft's extension) ----

    /** Most routes {@code /routes} offers, and its default. */
    static final int MAX_ROUTES = 10;

    static final int DEFAULT_ROUTES = 3;
    /** Most entries of {@code rejected} (best first): enough to explain a choice, bounded on any registry. */
    static final int MAX_REJECTED = 20;

    /**
     * A route request plus {@code limit} (1–10, default 3) → {@code {routes: [{tags, route}], rejected: [..]}}: up to
     * {@code limit} distinct routes of the Pareto front of (amount out, txs, duration), best first under the cost model
     * (the first is {@code /route}'s), each tagged {@code BEST}, {@code MOST_OUTPUT}, {@code FEWEST_TXS},
     * {@code FASTEST} where it is the first such; and the candidate paths not offered, each with its binding reason.
     * Exact-in only.
     */
    public JsonObject routes(JsonObject body) {
        int limit = limit(body);
        RouteRequest req = RouteRequest.parse(body);
        if (req.exactOut() != null)
            throw BusError.badRequest("/v2/fungible/routes takes amount_in (exact-out: /route)");
        ComputedRoute chosen = compute(req);
        Asset source = chosen.source();
        Asset dest = chosen.dest();
        boolean evm = chosen.evmSigned();
        RouteSearch.OpWithdrawPolicy policy =
                req.isOpWithdraw() ? RouteSearch.OpWithdrawPolicy.FORCE : RouteSearch.OpWithdrawPolicy.AVOID;
        List<RouteSearch.Candidate> all = new ArrayList<>(RouteSearch.candidates(
                graph, source, dest, req.amountIn(), config.maxHops(), req.limits(), cost(dest, evm)));
        all.sort(RouteSearch.BEST_FIRST);
        boolean withoutWithdrawal = all.stream().anyMatch(c -> !c.withdraws());
        // what each admitted candidate renders to (or why it cannot be offered)
        List<RouteSearch.Candidate> offerable = new ArrayList<>();
        List<ComputedRoute> rendered = new ArrayList<>();
        java.util.Map<List<Edge>, String[]> reasons = new java.util.LinkedHashMap<>();
        for (RouteSearch.Candidate c : all) {
            if (!RouteSearch.admitted(c, policy, withoutWithdrawal)) {
                reasons.put(
                        c.edges(),
                        req.isOpWithdraw()
                                ? new String[] {
                                    "NOT_OP_WITHDRAW", "is_op_withdraw is true and the route does not withdraw"
                                }
                                : new String[] {
                                    "OP_WITHDRAW_AVOIDED", "an OPinit withdrawal, used only when no other route arrives"
                                });
                continue;
            }
            try {
                rendered.add(render(req, source, dest, evm, RouteSearch.path(graph, c, req.amountIn())));
                offerable.add(c);
            } catch (BusError e) {
                String reason = e.httpStatus() == 503 ? "STALE_POOL_STATE" : "PRICE_IMPACT";
                reasons.put(c.edges(), new String[] {reason, e.getMessage()});
            }
        }
        // the Pareto front of (amount out, txs, duration) among the offerable, kept in best-first order
        List<Integer> front = new ArrayList<>();
        for (int i = 0; i < offerable.size(); i++) {
            RouteSearch.Candidate c = offerable.get(i);
            RouteSearch.Candidate by = null;
            for (RouteSearch.Candidate o : offerable) {
                if (o != c && dominates(o, c)) {
                    by = o;
                    break;
                }
            }
            if (by == null) front.add(i);
            else {
                reasons.put(c.edges(), new String[] {
                    "DOMINATED",
                    "another route delivers as much or more in no more txs and no more time (" + by.amountOut() + " in "
                            + by.txs() + " tx, " + by.seconds() + " s)"
                });
            }
        }
        // the best first (it is /route's), then the first of each other tag, then the rest of the front in order
        List<Integer> picked = new ArrayList<>();
        if (!front.isEmpty()) {
            picked.add(front.get(0));
            for (java.util.Comparator<RouteSearch.Candidate> tag : List.<java.util.Comparator<RouteSearch.Candidate>>of(
                    java.util.Comparator.comparing(RouteSearch.Candidate::amountOut)
                            .reversed(),
                    java.util.Comparator.comparingInt(RouteSearch.Candidate::txs),
                    java.util.Comparator.comparingLong(RouteSearch.Candidate::seconds))) {
                int first = front.get(0);
                for (int i : front) if (tag.compare(offerable.get(i), offerable.get(first)) < 0) first = i;
                if (!picked.contains(first)) picked.add(first);
            }
            for (int i : front) if (!picked.contains(i)) picked.add(i);
        }
        List<Integer> offered = picked.subList(0, Math.min(limit, picked.size()));
        JsonArray routes = new JsonArray();
        for (int i : offered) {
            RouteSearch.Candidate c = offerable.get(i);
            JsonArray tags = new JsonArray();
            if (i == front.get(0)) tags.add("BEST");
            if (firstWith(
                    front,
                    offerable,
                    c,
                    java.util.Comparator.comparing(RouteSearch.Candidate::amountOut)
                            .reversed())) tags.add("MOST_OUTPUT");
            if (firstWith(front, offerable, c, java.util.Comparator.comparingInt(RouteSearch.Candidate::txs)))
                tags.add("FEWEST_TXS");
            if (firstWith(front, offerable, c, java.util.Comparator.comparingLong(RouteSearch.Candidate::seconds)))
                tags.add("FASTEST");
            // the first is /route's answer itself (its swap_state_height included)
            JsonObject json =
                    i == front.get(0) ? chosen.json() : rendered.get(i).json();
            routes.add(new JsonObject().put("tags", tags).put("route", json));
        }
        for (int i : picked.subList(offered.size(), picked.size())) {
            reasons.put(offerable.get(i).edges(), new String[] {"LIMIT", "beyond limit " + limit});
        }
        // paths the request's rules leave out: a chain twice, bridges, swaps and venues, one tx
        for (RouteSearch.Candidate c : sorted(
                RouteSearch.unrestricted(graph, source, dest, req.amountIn(), config.maxHops(), cost(dest, evm)))) {
            if (reasons.containsKey(c.edges())
                    || offeredEdges(offered, offerable).contains(c.edges())) continue;
            String twice = RouteSearch.chainVisitedTwice(graph, c);
            String[] why = twice != null
                    ? new String[] {"CHAIN_VISITED_TWICE", "visits " + twice + " twice"}
                    : excludedBy(req.limits(), c);
            if (why != null) reasons.put(c.edges(), why);
        }
        JsonArray rejected = new JsonArray();
        for (var e : reasons.entrySet()) {
            if (rejected.size() == MAX_REJECTED) break;
            rejected.add(rejectedJson(e.getKey(), e.getValue()));
        }
        return new JsonObject().put("routes", routes).put("rejected", rejected);
    }

    private static int limit(JsonObject body) {
        Object v = body.getValue("limit");
        if (v == null) return DEFAULT_ROUTES;
        if (!(v instanceof Integer || v instanceof Long)
                || ((Number) v).longValue() < 1
                || ((Number) v).longValue() > MAX_ROUTES) {
            throw BusError.badRequest(
                    "limit must be an integer from 1 to " + MAX_ROUTES + " (got " + RouteRequest.show(v) + ")");
        }
        return ((Number) v).intValue();
    }

    private static boolean dominates(RouteSearch.Candidate a, RouteSearch.Candidate b) {
        int out = a.amountOut().compareTo(b.amountOut());
        boolean noWorse = out >= 0 && a.txs() <= b.txs() && a.seconds() <= b.seconds();
        return noWorse && (out > 0 || a.txs() < b.txs() || a.seconds() < b.seconds());
    }

    private static boolean firstWith(
            List<Integer> front,
            List<RouteSearch.Candidate> offerable,
            RouteSearch.Candidate c,
            java.util.Comparator<RouteSearch.Candidate> tag) {
        for (int i : front) {
            RouteSearch.Candidate o = offerable.get(i);
            if (tag.compare(o, c) < 0) return false;
            if (o == c) return true;
        }
        return false;
    }

    private static List<RouteSearch.Candidate> sorted(List<RouteSearch.Candidate> all) {
        List<RouteSearch.Candidate> out = new ArrayList<>(all);
        out.sort(RouteSearch.BEST_FIRST);
        return out;
    }

    private static Set<List<Edge>> offeredEdges(List<Integer> offered, List<RouteSearch.Candidate> offerable) {
        Set<List<Edge>> out = new HashSet<>();
        for (int i : offered) out.add(offerable.get(i).edges());
        return out;
    }

    /** The request restriction that leaves a path out (null: none does). */
    private static String[] excludedBy(RouteLimits limits, RouteSearch.Candidate c) {
        for (Edge e : c.edges()) {
            if (limits.allows(e)) continue;
            if (!e.isSwap()) return new String[] {"EXCLUDED_BY_BRIDGES", "uses " + e.kind() + ", not in bridges"};
            if (!limits.swaps()) return new String[] {"EXCLUDED_BY_ALLOW_SWAPS", "swaps and allow_swaps is false"};
            return new String[] {
                "EXCLUDED_BY_SWAP_VENUES",
                "swaps on " + e.venue().name() + " (" + e.venue().chainId() + "), not in swap_venues"
            };
        }
        if (limits.singleTx() && c.txs() > 1)
            return new String[] {"EXCLUDED_BY_ALLOW_MULTI_TX", "takes " + c.txs() + " txs and allow_multi_tx is false"};
        return null;
    }

    private JsonObject rejectedJson(List<Edge> edges, String[] why) {
        JsonArray ops = new JsonArray();
        JsonArray chains = new JsonArray();
        for (Edge e : edges) {
            ops.add(
                    switch (e.kind()) {
                        case IBC -> "transfer";
                        case OP_DEPOSIT, OP_WITHDRAW -> "op_init_transfer";
                        case LAYER_ZERO -> "layer_zero_transfer";
                        case SWAP -> "swap";
                    });
            String from = graph.asset(e.from()).chainId();
            if (chains.isEmpty()) chains.add(from);
            String to = graph.asset(e.to()).chainId();
            if (!to.equals(chains.getString(chains.size() - 1))) chains.add(to);
        }
        return new JsonObject()
                .put("operations", ops)
                .put("chain_ids", chains)
                .put("reason", why[0])
                .put("message", why[1]);
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
                        asked.limits())
                .withAffiliateBps(asked.affiliateBps());
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
                                used)
                        .withAffiliateBps(asked.affiliateBps()));
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
        List<MsgsRequest.Affiliate> affiliates = affiliates(route, m.affiliates());
        return MsgsBuilder.build(
                graph,
                route,
                amounts != null ? amounts : route.path().amounts(),
                addresses,
                m.slippagePercent(),
                timeout,
                clock.instant(),
                hookData,
                affiliates,
                gas);
    }

    /**
     * The affiliates paid on the chain where the route takes its fee (the last swap's, or the source on a transfer-only
     * route), as Skip checks them: their bps sum to {@code cumulative_affiliate_fee_bps} on every chain named, and each
     * address is one of its chain.
     */
    private List<MsgsRequest.Affiliate> affiliates(
            ComputedRoute route, java.util.Map<String, List<MsgsRequest.Affiliate>> byChain) {
        int bps = route.request().affiliateBps();
        for (var e : byChain.entrySet()) {
            int sum = e.getValue().stream().mapToInt(MsgsRequest.Affiliate::bps).sum();
            if (sum != bps) {
                throw BusError.badRequest("chain_ids_to_affiliates." + e.getKey() + ": the basis_points_fee sum to "
                        + sum + ", cumulative_affiliate_fee_bps is " + bps);
            }
            Chain chain = registry.chain(e.getKey());
            if (chain == null)
                throw BusError.badRequest("chain_ids_to_affiliates: chain " + e.getKey() + " is not supported");
            for (int i = 0; i < e.getValue().size(); i++) {
                address(
                        chain,
                        e.getValue().get(i).address(),
                        "chain_ids_to_affiliates." + e.getKey() + ".affiliates[" + i + "].address");
            }
        }
        if (bps == 0) return List.of();
        int op = Math.max(route.affiliateOp(), 0);
        String feeChain = route.chainIds().get(route.fromVisit()[op]);
        List<MsgsRequest.Affiliate> paid = byChain.get(feeChain);
        if (paid == null || paid.isEmpty()) {
            throw BusError.badRequest("chain_ids_to_affiliates has no affiliates for " + feeChain
                    + ", where the route takes its cumulative_affiliate_fee_bps of " + bps);
        }
        return paid;
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
    boolean unwrappable(Chain c, Asset a) {
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
