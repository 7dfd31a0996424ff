package dev.weft.api;

import dev.weft.config.ChainConfig;
import dev.weft.runtime.NodeContext;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import java.util.List;
import java.util.Locale;

/**
 * kvindexer's {@code indexer.info} service: {@code GET /indexer/version} ({@code {"versions":[{"submodule","version"}]}})
 * and {@code GET /indexer/vmtype} ({@code {"vmtype":"evm"|"move"|"wasm"}}), in gRPC-gateway JSON.
 */
public final class InfoApi implements ApiModule {
    /**
     * The kvindexer submodules a rollup of each VM registers (minievm, minimove, miniwasm app wiring), each with the
     * version at kvindexer {@code 9c8b124}: the submodule API whose shapes Weft serves in their place.
     */
    static List<String[]> submodules(ChainConfig.Vm vm) {
        return switch (vm) {
            case EVM -> List.of(BLOCK, TX, PAIR, new String[] {"evm-nft", "v0.1.10"});
            case MOVE -> List.of(BLOCK, TX, PAIR, new String[] {"move-nft", "v0.1.9"});
            case WASM -> List.of(BLOCK, TX, new String[] {"wasm-pair", "v0.1.4"}, new String[] {"wasm-nft", "v0.1.9"});
        };
    }

    private static final String[] BLOCK = {"block", "v0.1.4"};
    private static final String[] TX = {"tx", "v0.2.2"};
    private static final String[] PAIR = {"pair", "v0.1.5"};

    private final JsonObject versions;
    private final JsonObject vmType;

    public InfoApi(NodeContext ctx) {
        ChainConfig.Vm vm = ctx.config().chain().vm();
        JsonArray list = new JsonArray();
        for (String[] s : submodules(vm))
            list.add(new JsonObject().put("submodule", s[0]).put("version", s[1]));
        this.versions = new JsonObject().put("versions", list);
        this.vmType = new JsonObject().put("vmtype", vm.name().toLowerCase(Locale.ROOT));
    }

    @Override
    public void mount(Router router) {
        router.get("/indexer/version").handler(rc -> Responses.json(rc, versions.copy()));
        router.get("/indexer/vmtype").handler(rc -> Responses.json(rc, vmType.copy()));
    }

    @Override
    public String openApiFragment() {
        return "openapi/info.json";
    }
}
