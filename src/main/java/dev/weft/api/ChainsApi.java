package dev.weft.api;

import dev.weft.bus.BusError;
import dev.weft.config.ChainConfig;
import dev.weft.runtime.NodeContext;
import dev.weft.store.LeaseStore;
import dev.weft.store.StatusStore;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Every indexed chain under its own prefix: {@code /chains/{chain_id}/indexer/…} and {@code /chains/{chain_id}/status}
 * in exactly the shapes of the default chain's {@code /indexer/…} and {@code /status}, so an explorer's per-rollup
 * "indexer URL" can be {@code <base>/chains/<id>}; {@code GET /chains} lists the chains with their heights and the node
 * writing each. An unknown chain is a JSON 404.
 */
public final class ChainsApi implements ApiModule {
    private final NodeContext ctx;
    private final Map<String, List<ApiModule>> modulesByChain = new LinkedHashMap<>();
    private final Map<String, SystemApi> statusByChain = new HashMap<>();

    /** {@code modules}: the indexer endpoint families of one chain, built from that chain's context. */
    public ChainsApi(NodeContext ctx, Function<NodeContext, List<ApiModule>> modules) {
        this.ctx = ctx;
        for (NodeContext chain : ctx.chains().all()) {
            String id = chain.config().chain().chainId();
            modulesByChain.put(id, modules.apply(chain));
            statusByChain.put(id, new SystemApi(chain, List.of()));
        }
    }

    /** One chain's endpoint families (for the OpenAPI document's prefixed paths). */
    List<ApiModule> anyChainModules() {
        return modulesByChain.isEmpty()
                ? List.of()
                : modulesByChain.values().iterator().next();
    }

    @Override
    public void mount(Router router) {
        router.get("/chains").handler(this::list);
        modulesByChain.forEach((id, modules) -> {
            Router sub = Router.router(ctx.vertx());
            sub.get("/status").handler(statusByChain.get(id)::status);
            for (ApiModule m : modules) m.mount(sub);
            router.route("/chains/" + id + "/*").subRouter(sub);
        });
        router.route("/chains/:chain_id/*").handler(this::unknown);
        router.route("/chains/:chain_id").handler(this::unknown);
    }

    @Override
    public String openApiFragment() {
        return "openapi/chains.json";
    }

    private void unknown(RoutingContext rc) {
        String id = rc.pathParam("chain_id");
        Responses.error(
                rc,
                modulesByChain.containsKey(id)
                        ? BusError.notFound("not found")
                        : BusError.notFound("unknown chain " + id + " (GET /chains lists the indexed ones)"));
    }

    private void list(RoutingContext rc) {
        Future<List<LeaseStore.LeaseConnection>> leases =
                new LeaseStore(ctx.pool()).connections().recover(e -> Future.succeededFuture(List.of()));
        Future<Map<String, Long>> heads = heads();
        List<Future<JsonObject>> rows = new ArrayList<>();
        for (NodeContext chain : ctx.chains().all()) rows.add(describe(chain));
        Responses.reply(
                rc, Future.all(rows).compose(all -> Future.all(leases, heads)).map(all -> {
                    JsonArray out = new JsonArray();
                    for (Future<JsonObject> f : rows) {
                        JsonObject o = f.result();
                        JsonObject writers = new JsonObject();
                        for (String kind : List.of("ingest", "evm", "richlist"))
                            writers.put(kind, holder(leases.result(), kind + "." + o.getString("chain_id")));
                        Long head = heads.result().get(o.getString("chain_id"));
                        o.put("node_height", head);
                        o.put("lag", head == null ? null : Math.max(0, head - o.getLong("height")));
                        out.add(o.put("writers", writers));
                    }
                    return new JsonObject().put("chains", out);
                }));
    }

    /** Each chain's newest head as its ingestion last saw it (cluster-wide), or none when it cannot be read. */
    private Future<Map<String, Long>> heads() {
        List<String> ids = ctx.chains().ids();
        return ctx.vertx()
                .sharedData()
                .<String, Long>getAsyncMap(dev.weft.bus.Addresses.CHAIN_HEADS_MAP)
                .compose(m -> {
                    List<Future<Long>> each = new ArrayList<>();
                    for (String id : ids) each.add(m.get(id));
                    return Future.all(each).map(x -> {
                        Map<String, Long> out = new HashMap<>();
                        for (int i = 0; i < ids.size(); i++)
                            if (each.get(i).result() != null)
                                out.put(ids.get(i), each.get(i).result());
                        return out;
                    });
                })
                .recover(e -> Future.succeededFuture(Map.of()));
    }

    private Future<JsonObject> describe(NodeContext chain) {
        ChainConfig c = chain.config().chain();
        return new StatusStore(chain.pool())
                .cursors()
                .map(cursors -> new JsonObject()
                        .put("chain_id", c.chainId())
                        .put("vm", c.vm().name().toLowerCase(java.util.Locale.ROOT))
                        .put("default", c.chainId().equals(ctx.config().chains().defaultChainId()))
                        .put("height", cursors.getOrDefault(StatusStore.INGEST, 0L))
                        .put("internal_tx_height", c.isEvm() ? cursors.getOrDefault(StatusStore.INTERNAL_TX, 0L) : 0L)
                        .put("rich_list_height", cursors.getOrDefault(StatusStore.RICHLIST, 0L))
                        .put("path", "/chains/" + c.chainId()));
    }

    /** The node holding a lease, or null while none does. */
    private static String holder(List<LeaseStore.LeaseConnection> seen, String lease) {
        long key = LeaseStore.keyOf(lease);
        for (LeaseStore.LeaseConnection c : seen) if (c.heldKey() != null && c.heldKey() == key) return c.nodeId();
        return null;
    }
}
