package dev.weft.route.registry;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Makes {@code conf/registry/mainnet.json} from the Initia registry export ({@code src/test/resources/fixtures/initia-registry/})
 * and the configuration overlay ({@code src/test/resources/registry/mainnet-overlay.json}). Run it after changing the
 * overlay (command in {@code conf/registry/README.md}); {@code MainnetRegistryFileTest} checks the committed file equals
 * its output.
 */
public final class MainnetRegistryConverter {
    static final Path FIXTURES = dev.weft.testsupport.FixtureChain.FIXTURES.resolve("initia-registry");
    static final Path OVERLAY = Path.of("src/test/resources/registry/mainnet-overlay.json");
    static final Path OUTPUT = Path.of("conf/registry/mainnet.json");

    private final JsonArray chains;
    private final JsonArray assetLists;
    private final JsonObject overlay;
    private final String l1;
    private final Map<String, String> idByName = new LinkedHashMap<>();

    MainnetRegistryConverter(JsonArray chains, JsonArray assetLists, JsonObject overlay) {
        this.chains = chains;
        this.assetLists = assetLists;
        this.overlay = overlay;
        this.l1 = overlay.getString("l1_chain_id");
        for (Object o : chains)
            idByName.put(((JsonObject) o).getString("chain_name"), ((JsonObject) o).getString("chain_id"));
        overlay.getJsonObject("chain_names").forEach(e -> idByName.put(e.getKey(), (String) e.getValue()));
    }

    public static void main(String[] args) throws IOException {
        Files.createDirectories(OUTPUT.getParent());
        Files.writeString(OUTPUT, fromFiles().encodePrettily() + "\n");
        System.out.println("wrote " + OUTPUT);
    }

    static JsonObject fromFiles() throws IOException {
        return new MainnetRegistryConverter(
                        new JsonArray(Files.readString(FIXTURES.resolve("mainnet-chains.json"))),
                        new JsonArray(Files.readString(FIXTURES.resolve("mainnet-assets.json"))),
                        new JsonObject(Files.readString(OVERLAY)))
                .convert();
    }

    JsonObject convert() {
        List<JsonObject> registryChains = new ArrayList<>();
        for (Object o : chains) registryChains.add((JsonObject) o);
        registryChains.sort(Comparator.comparing((JsonObject c) -> !l1.equals(c.getString("chain_id")))
                .thenComparing(c -> c.getString("chain_id")));
        JsonArray outChains = new JsonArray();
        for (JsonObject c : registryChains) outChains.add(chain(c));
        overlay.getJsonArray("external_chains").forEach(outChains::add);
        Channels channels = channels();
        return new JsonObject()
                .put("registry", overlay.getString("registry"))
                .put("description", overlay.getString("description"))
                .put("notes", overlay.getJsonArray("notes"))
                .put("chains", outChains)
                .put("ibc_channels", channels.pairs)
                .put("incomplete_ibc_channels", channels.incomplete)
                .put("assets", assets(registryChains))
                .put("price_oracles", overlay.getJsonArray("price_oracles"))
                .put("swap_venues", overlay.getJsonArray("swap_venues"))
                .put("layer_zero_lanes", overlay.getJsonArray("layer_zero_lanes"))
                .put("erc20_wrappers", overlay.getJsonArray("erc20_wrappers"));
    }

    private JsonObject chain(JsonObject c) {
        JsonObject meta = c.getJsonObject("metadata", new JsonObject());
        boolean isL1 = meta.getBoolean("is_l1", false);
        String vm = isL1
                ? "move"
                : switch (meta.getJsonObject("minitia", new JsonObject()).getString("type", "")) {
                    case "minievm" -> "evm";
                    case "minimove" -> "move";
                    case "miniwasm" -> "wasm";
                    default -> null;
                };
        JsonArray fees = new JsonArray();
        for (Object o : c.getJsonObject("fees", new JsonObject()).getJsonArray("fee_tokens", new JsonArray())) {
            JsonObject t = (JsonObject) o;
            Object fixed = t.getValue("fixed_min_gas_price");
            JsonObject gp = fixed == null && t.getValue("low_gas_price") == null
                    ? null
                    : new JsonObject()
                            .put("low", number(t.getValue("low_gas_price"), fixed))
                            .put("average", number(t.getValue("average_gas_price"), fixed))
                            .put("high", number(t.getValue("high_gas_price"), fixed));
            fees.add(new JsonObject().put("denom", t.getString("denom")).put("gas_price", gp));
        }
        JsonObject apis = c.getJsonObject("apis", new JsonObject());
        JsonObject logos = c.getJsonObject("logo_URIs", new JsonObject());
        JsonArray explorers = c.getJsonArray("explorers", new JsonArray());
        JsonObject bridge = null;
        JsonObject configuration = (isL1
                        ? overlay.getJsonObject("l1_configuration")
                        : overlay.getJsonObject("rollup_configuration"))
                .copy();
        if (meta.getValue("op_bridge_id") != null) {
            bridge = new JsonObject()
                    .put("bridge_id", meta.getString("op_bridge_id"))
                    .put("l1_chain_id", l1)
                    .put("op_denoms", meta.getJsonArray("op_denoms", new JsonArray()))
                    .put("executor_uri", meta.getString("executor_uri"));
            JsonObject conf = new JsonObject()
                    .put("pfm_enabled", configuration.getBoolean("pfm_enabled"))
                    .put("supports_memo", configuration.getBoolean("supports_memo"))
                    .put("hooks", vm)
                    .put("finalization_period_seconds", configuration.getLong("finalization_period_seconds"));
            configuration = conf;
        }
        Object evmChainId = c.getValue("evm_chain_id");
        return new JsonObject()
                .put("chain_id", c.getString("chain_id"))
                .put("chain_name", c.getString("chain_name"))
                .put("pretty_name", c.getString("pretty_name"))
                .put("source", "initia-registry")
                .put("chain_type", "cosmos")
                .put("vm", vm)
                .put("is_l1", isL1)
                .put("is_testnet", !"mainnet".equals(c.getString("network_type")))
                .put("evm_chain_id", evmChainId == null ? null : evmChainId.toString())
                .put("bech32_prefix", c.getString("bech32_prefix"))
                .put("fee_assets", fees)
                .put(
                        "apis",
                        new JsonObject()
                                .put("rpc", firstAddress(apis, "rpc"))
                                .put("rest", firstAddress(apis, "rest"))
                                .put("json_rpc", firstAddress(apis, "json-rpc")))
                .put(
                        "explorer_tx_page",
                        explorers.isEmpty() ? null : explorers.getJsonObject(0).getString("tx_page"))
                .put("logo_uri", logos.getString("png", logos.getString("svg")))
                .put("op_bridge", bridge)
                .put("configuration", configuration);
    }

    private static String number(Object preferred, Object fallback) {
        Object v = preferred != null ? preferred : fallback;
        if (v == null) return null;
        if (v instanceof Double d)
            return BigDecimal.valueOf(d).stripTrailingZeros().toPlainString();
        return new BigDecimal(v.toString()).toPlainString();
    }

    private static String firstAddress(JsonObject apis, String kind) {
        JsonArray a = apis.getJsonArray(kind, new JsonArray());
        return a.isEmpty() ? null : a.getJsonObject(0).getString("address");
    }

    private JsonArray assets(List<JsonObject> registryChains) {
        Map<String, JsonArray> byChain = new LinkedHashMap<>();
        for (Object o : assetLists) {
            JsonObject list = (JsonObject) o;
            byChain.put(idByName.get(list.getString("chain_name")), list.getJsonArray("assets"));
        }
        JsonArray out = new JsonArray();
        Map<String, JsonObject> external = new LinkedHashMap<>();
        Set<String> registryIds = new LinkedHashSet<>();
        for (JsonObject c : registryChains) registryIds.add(c.getString("chain_id"));
        for (JsonObject c : registryChains) {
            String chainId = c.getString("chain_id");
            for (Object o : byChain.getOrDefault(chainId, new JsonArray())) {
                JsonObject a = (JsonObject) o;
                JsonArray traces = new JsonArray();
                for (Object t : a.getJsonArray("traces", new JsonArray())) {
                    JsonObject tr = (JsonObject) t;
                    JsonObject cp = tr.getJsonObject("counterparty");
                    String cpChain = idByName.get(cp.getString("chain_name"));
                    if ("ibc".equals(tr.getString("type"))) {
                        String path = tr.getJsonObject("chain").getString("path");
                        traces.add(new JsonObject()
                                .put("type", "ibc")
                                .put("path", path)
                                .put("counterparty_chain_id", cpChain)
                                .put("counterparty_denom", cp.getString("base_denom")));
                        if (!registryIds.contains(cpChain)
                                && path.equals(
                                        "transfer/" + tr.getJsonObject("chain").getString("channel_id") + "/"
                                                + cp.getString("base_denom"))) {
                            external.putIfAbsent(
                                    cpChain + "/" + cp.getString("base_denom"),
                                    externalAsset(cpChain, cp.getString("base_denom"), a, chainId));
                        }
                    } else {
                        traces.add(new JsonObject()
                                .put("type", "op")
                                .put("bridge_id", tr.getJsonObject("chain").getString("bridge_id"))
                                .put("counterparty_chain_id", cpChain)
                                .put("counterparty_denom", cp.getString("base_denom")));
                    }
                }
                String denom = a.getString("base");
                String contract = a.getString("address");
                if (contract == null && denom.startsWith("evm/")) contract = "0x" + denom.substring(4);
                out.add(new JsonObject()
                        .put("chain_id", chainId)
                        .put("denom", denom)
                        .put("symbol", a.getString("symbol"))
                        .put("name", a.getString("name"))
                        .put("decimals", decimals(a))
                        .put("description", a.getString("description"))
                        .put("coingecko_id", blankToNull(a.getString("coingecko_id")))
                        .put(
                                "logo_uri",
                                a.getJsonObject("logo_URIs", new JsonObject()).getString("png"))
                        .put("token_contract", contract)
                        .put("source", "initia-registry")
                        .put("traces", traces));
            }
        }
        external.values().forEach(out::add);
        return out;
    }

    private static JsonObject externalAsset(String chainId, String denom, JsonObject like, String seenOn) {
        return new JsonObject()
                .put("chain_id", chainId)
                .put("denom", denom)
                .put("symbol", like.getString("symbol"))
                .put("name", like.getString("name"))
                .put("decimals", decimals(like))
                .put("description", null)
                .put("coingecko_id", blankToNull(like.getString("coingecko_id")))
                .put(
                        "logo_uri",
                        like.getJsonObject("logo_URIs", new JsonObject()).getString("png"))
                .put("token_contract", null)
                .put(
                        "source",
                        "configuration: the origin named by the trace of " + like.getString("base") + " on " + seenOn)
                .put("traces", new JsonArray());
    }

    private static int decimals(JsonObject a) {
        String display = a.getString("display");
        int max = 0;
        for (Object u : a.getJsonArray("denom_units")) {
            JsonObject unit = (JsonObject) u;
            if (unit.getString("denom").equals(display)) return unit.getInteger("exponent");
            max = Math.max(max, unit.getInteger("exponent"));
        }
        return max;
    }

    private static String blankToNull(String s) {
        return s == null || s.isBlank() ? null : s;
    }

    private record Channels(JsonArray pairs, JsonArray incomplete) {}

    /** Channel pairs from both chains' metadata.ibc_channels and from asset traces; one-sided entries separately. */
    private Channels channels() {
        Map<String, String> listed = new LinkedHashMap<>(); // "chain/channel" -> counterparty chain
        Map<String, String> listedByPair = new LinkedHashMap<>(); // "chain>counterparty" -> channel
        for (Object o : chains) {
            JsonObject c = (JsonObject) o;
            for (Object e :
                    c.getJsonObject("metadata", new JsonObject()).getJsonArray("ibc_channels", new JsonArray())) {
                JsonObject ch = (JsonObject) e;
                if (!"transfer".equals(ch.getString("port_id"))) continue;
                listed.put(c.getString("chain_id") + "/" + ch.getString("channel_id"), ch.getString("chain_id"));
                listedByPair.put(c.getString("chain_id") + ">" + ch.getString("chain_id"), ch.getString("channel_id"));
            }
        }
        Map<String, String> partner = new TreeMap<>(); // end -> other end
        Map<String, Set<String>> sources = new LinkedHashMap<>();
        listedByPair.forEach((k, channel) -> {
            String[] ab = k.split(">");
            String back = listedByPair.get(ab[1] + ">" + ab[0]);
            if (back != null)
                link(
                        partner,
                        sources,
                        ab[0] + "/" + channel,
                        ab[1] + "/" + back,
                        "metadata.ibc_channels of both chains");
        });
        for (Object o : assetLists) {
            JsonObject list = (JsonObject) o;
            String chainId = idByName.get(list.getString("chain_name"));
            for (Object x : list.getJsonArray("assets")) {
                JsonObject a = (JsonObject) x;
                JsonArray traces = a.getJsonArray("traces", new JsonArray());
                for (int i = 0; i < traces.size(); i++) {
                    JsonObject t = traces.getJsonObject(i);
                    if (!"ibc".equals(t.getString("type"))) continue;
                    String here = i == traces.size() - 1
                            ? chainId
                            : idByName.get(traces.getJsonObject(i + 1)
                                    .getJsonObject("counterparty")
                                    .getString("chain_name"));
                    String there = idByName.get(t.getJsonObject("counterparty").getString("chain_name"));
                    link(
                            partner,
                            sources,
                            here + "/" + t.getJsonObject("chain").getString("channel_id"),
                            there + "/" + t.getJsonObject("counterparty").getString("channel_id"),
                            "the trace of " + a.getString("base") + " on " + chainId);
                }
            }
        }
        JsonArray pairs = new JsonArray();
        Set<String> done = new LinkedHashSet<>();
        List<String> ends = new ArrayList<>(partner.keySet());
        ends.sort(Comparator.comparing((String e) -> !e.startsWith(l1 + "/"))
                .thenComparing(MainnetRegistryConverter::chainOf)
                .thenComparingInt(MainnetRegistryConverter::channelNumber));
        for (String a : ends) {
            String b = partner.get(a);
            if (!done.add(a) || !done.add(b)) continue;
            pairs.add(new JsonObject()
                    .put("port", "transfer")
                    .put("chain_a", chainOf(a))
                    .put("channel_a", a.substring(a.indexOf('/') + 1))
                    .put("chain_b", chainOf(b))
                    .put("channel_b", b.substring(b.indexOf('/') + 1))
                    .put("source", "initia-registry: " + String.join("; ", sources.get(key(a, b)))));
        }
        JsonArray incomplete = new JsonArray();
        listed.forEach((end, counterparty) -> {
            if (!partner.containsKey(end)) {
                incomplete.add(new JsonObject()
                        .put("chain_id", chainOf(end))
                        .put("channel_id", end.substring(end.indexOf('/') + 1))
                        .put("counterparty_chain_id", counterparty)
                        .put(
                                "reason",
                                "the counterparty channel on " + counterparty
                                        + " is in neither its metadata.ibc_channels nor an asset trace"));
            }
        });
        return new Channels(pairs, incomplete);
    }

    private static void link(
            Map<String, String> partner, Map<String, Set<String>> sources, String a, String b, String source) {
        for (String[] e : new String[][] {{a, b}, {b, a}}) {
            String old = partner.putIfAbsent(e[0], e[1]);
            if (old != null && !old.equals(e[1]))
                throw new IllegalStateException("conflicting channel ends: " + e[0] + " -> " + old + " and " + e[1]);
        }
        sources.computeIfAbsent(key(a, b), k -> new LinkedHashSet<>()).add(source);
    }

    private static String key(String a, String b) {
        return a.compareTo(b) < 0 ? a + "|" + b : b + "|" + a;
    }

    private static String chainOf(String end) {
        return end.substring(0, end.indexOf('/'));
    }

    private static int channelNumber(String end) {
        return Integer.parseInt(end.substring(end.lastIndexOf('-') + 1));
    }
}
