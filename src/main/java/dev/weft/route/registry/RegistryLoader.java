package dev.weft.route.registry;

import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.io.InputStream;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads registry files (JSON, format in {@code conf/registry/README.md}) into one {@link Registry}: several files are
 * merged (their chains must be disjoint), every entry is validated, {@code ibc/} and {@code l2/} denoms are re-derived
 * from their traces and must equal the listed values, and the assets the chains imply are derived (see
 * {@link AssetDerivation}).
 */
public final class RegistryLoader {
    private static final BigDecimal ONE = BigDecimal.ONE;

    private RegistryLoader() {}

    /** Loads the files (or, when a file does not exist, the resource of the same path bundled in the jar). */
    public static Registry load(List<String> files, Map<String, Duration> finalizationOverrides) {
        List<JsonFields> docs = new ArrayList<>();
        for (String f : files) docs.add(new JsonFields(read(f), f));
        return build(docs, finalizationOverrides);
    }

    /** Builds a registry from already parsed documents (name → JSON), for tests. */
    public static Registry fromJson(Map<String, JsonObject> docs) {
        List<JsonFields> fields = new ArrayList<>();
        docs.forEach((name, json) -> fields.add(new JsonFields(json, name)));
        return build(fields, Map.of());
    }

    static JsonObject read(String file) {
        try {
            Path p = Path.of(file);
            String text;
            if (Files.exists(p)) {
                text = Files.readString(p);
            } else {
                try (InputStream in = RegistryLoader.class.getClassLoader().getResourceAsStream(file)) {
                    if (in == null) throw new RegistryException("registry file not found: " + file);
                    text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
                }
            }
            return new JsonObject(text);
        } catch (IOException e) {
            throw new RegistryException("cannot read registry file " + file + ": " + e.getMessage());
        } catch (DecodeException e) {
            throw new RegistryException("registry file " + file + " is not valid JSON: "
                    + e.getMessage().lines().findFirst().orElse(""));
        }
    }

    private static Registry build(List<JsonFields> docs, Map<String, Duration> finalizationOverrides) {
        Map<String, Chain> chains = new LinkedHashMap<>();
        List<IbcChannel> channels = new ArrayList<>();
        List<AssetDerivation.Listed> listed = new ArrayList<>();
        List<LayerZeroLane> lanes = new ArrayList<>();
        List<SwapVenue> venues = new ArrayList<>();
        List<Erc20Wrapper> wrappers = new ArrayList<>();
        Map<String, BigDecimal> prices = new LinkedHashMap<>();
        Map<String, JsonFields> priceEntries = new LinkedHashMap<>();
        for (JsonFields doc : docs) {
            for (JsonFields c : doc.objects("chains")) {
                Chain chain = chain(c, finalizationOverrides);
                if (chains.putIfAbsent(chain.chainId(), chain) != null)
                    throw c.error("chain " + chain.chainId() + " is defined twice");
            }
        }
        for (String chain : finalizationOverrides.keySet()) {
            if (chains.get(chain) == null || !chains.get(chain).isRollup()) {
                throw new RegistryException(
                        "route.finalization_periods names " + chain + ", which is not a rollup of the registry");
            }
        }
        for (Chain c : chains.values()) checkBridge(c, chains);
        for (JsonFields doc : docs) {
            for (JsonFields ch : doc.objects("ibc_channels")) channels.add(channel(ch, chains));
            for (JsonFields a : doc.objects("assets")) listed.add(AssetDerivation.listed(a, chains));
            JsonFields p = doc.object("usd_prices");
            if (p != null) {
                for (String key : p.json().fieldNames()) {
                    prices.put(key, p.decimal(key, BigDecimal.ZERO, new BigDecimal("1e30")));
                    priceEntries.put(key, p);
                }
            }
        }
        checkChannelsUnique(channels);
        Set<String> wrapped = new HashSet<>();
        for (JsonFields doc : docs) {
            for (JsonFields w : doc.objects("erc20_wrappers"))
                wrapped.add(w.string("chain_id") + "/" + w.string("wrapped_denom"));
        }
        List<Asset> assets = AssetDerivation.derive(chains, channels, listed, wrapped);
        Registry partial = new Registry(List.of(), chains, assets, channels, List.of(), List.of(), List.of(), Map.of());
        for (JsonFields doc : docs) {
            for (JsonFields l : doc.objects("layer_zero_lanes")) lanes.add(lane(l, partial));
            for (JsonFields v : doc.objects("swap_venues")) venues.add(venue(v, partial));
            for (JsonFields w : doc.objects("erc20_wrappers")) wrappers.add(wrapper(w, partial));
        }
        priceEntries.forEach((key, where) -> {
            int slash = key.indexOf('/');
            if (slash < 0 || partial.asset(key.substring(0, slash), key.substring(slash + 1)) == null) {
                throw where.error(
                        "usd price for " + key + ", which is not an asset of the registry (key: <chain_id>/<denom>)");
            }
        });
        List<String> oracles = new ArrayList<>();
        for (JsonFields doc : docs) {
            for (String chain : doc.strings("price_oracles")) {
                if (chains.get(chain) == null)
                    throw doc.error("price_oracles names " + chain + ", which is not a chain of the registry");
                oracles.add(chain);
            }
        }
        List<String> names = docs.stream().map(JsonFields::where).toList();
        return new Registry(names, chains, assets, channels, lanes, venues, wrappers, prices, oracles, Map.of());
    }

    private static Chain chain(JsonFields c, Map<String, Duration> overrides) {
        String id = c.string("chain_id");
        JsonFields at = new JsonFields(c.json(), c.where() + " (" + id + ")");
        String type = at.optString("chain_type") == null ? "cosmos" : at.string("chain_type");
        if (!type.equals("cosmos") && !type.equals("evm")) throw at.error("chain_type must be cosmos or evm");
        String vm = at.optString("vm");
        if (vm != null && !Set.of("move", "evm", "wasm").contains(vm)) throw at.error("vm must be move, evm or wasm");
        String prefix = at.optString("bech32_prefix");
        if (type.equals("cosmos") && (prefix == null || !prefix.matches("[a-z][a-z0-9]{0,30}"))) {
            throw at.error("bech32_prefix must be lower-case letters and digits");
        }
        String nativeDenom = at.optString("native_denom");
        if (type.equals("evm") && nativeDenom == null)
            throw at.error("native_denom is missing (an EVM chain's gas token)");
        List<Chain.FeeAsset> fees = new ArrayList<>();
        for (JsonFields f : at.objects("fee_assets")) {
            JsonFields gp = f.object("gas_price");
            fees.add(new Chain.FeeAsset(
                    f.string("denom"),
                    gp == null
                            ? null
                            : new Chain.GasPrice(gp.optString("low"), gp.optString("average"), gp.optString("high"))));
        }
        JsonFields apis = at.object("apis");
        JsonFields conf = at.object("configuration");
        if (conf == null) conf = new JsonFields(new JsonObject(), at.where() + ".configuration");
        String hooks = conf.optString("hooks");
        if (hooks != null && !Set.of("move", "evm", "wasm").contains(hooks))
            throw conf.error("hooks must be move, evm or wasm");
        OpBridge bridge = null;
        JsonFields b = at.object("op_bridge");
        if (b != null) {
            Duration period = overrides.containsKey(id)
                    ? overrides.get(id)
                    : Duration.ofSeconds(conf.longValue("finalization_period_seconds", 1));
            bridge = new OpBridge(
                    b.longValue("bridge_id", 1),
                    b.string("l1_chain_id"),
                    id,
                    List.copyOf(b.strings("op_denoms")),
                    b.optString("executor_uri"),
                    period);
        }
        return new Chain(
                id,
                at.optString("chain_name") == null ? id : at.string("chain_name"),
                at.optString("pretty_name") == null ? id : at.string("pretty_name"),
                type,
                vm,
                at.bool("is_l1", false),
                at.bool("is_testnet", false),
                at.optString("evm_chain_id"),
                prefix,
                nativeDenom,
                List.copyOf(fees),
                apis == null ? null : apis.optString("rpc"),
                apis == null ? null : apis.optString("rest"),
                apis == null ? null : apis.optString("json_rpc"),
                at.optString("explorer_tx_page"),
                at.optString("logo_uri"),
                bridge,
                conf.bool("pfm_enabled", false),
                conf.bool("supports_memo", type.equals("cosmos")),
                hooks,
                at.bool("hidden", false));
    }

    private static void checkBridge(Chain c, Map<String, Chain> chains) {
        if (c.opBridge() == null) return;
        Chain l1 = chains.get(c.opBridge().l1ChainId());
        if (l1 == null || !l1.l1()) {
            throw new RegistryException(c.chainId() + ": op_bridge.l1_chain_id "
                    + c.opBridge().l1ChainId() + " is not an L1 of the registry");
        }
        for (Chain other : chains.values()) {
            if (other != c
                    && other.opBridge() != null
                    && other.opBridge().bridgeId() == c.opBridge().bridgeId()
                    && other.opBridge().l1ChainId().equals(c.opBridge().l1ChainId())) {
                throw new RegistryException(c.chainId() + ": op bridge "
                        + c.opBridge().bridgeId() + " is also the bridge of " + other.chainId());
            }
        }
    }

    private static IbcChannel channel(JsonFields ch, Map<String, Chain> chains) {
        String port = ch.optString("port") == null ? "transfer" : ch.string("port");
        if (!port.equals("transfer"))
            throw ch.error("only ICS-20 channels of port transfer are routed (got " + port + ")");
        String a = ch.string("chain_a");
        String b = ch.string("chain_b");
        for (String id : List.of(a, b)) {
            if (chains.get(id) == null) throw ch.error("chain " + id + " is not in the registry");
            if (chains.get(id).isEvmChain()) throw ch.error("chain " + id + " is an EVM chain and has no IBC channels");
        }
        if (a.equals(b)) throw ch.error("a channel joins two different chains");
        return new IbcChannel(port, a, channelId(ch, "channel_a"), b, channelId(ch, "channel_b"));
    }

    private static String channelId(JsonFields ch, String key) {
        String id = ch.string(key);
        if (!id.matches("channel-[0-9]+")) throw ch.error(key + " must look like channel-<n> (got " + id + ")");
        return id;
    }

    private static void checkChannelsUnique(List<IbcChannel> channels) {
        Set<String> seen = new HashSet<>();
        for (IbcChannel c : channels) {
            for (String end : List.of(c.chainA() + "/" + c.channelA(), c.chainB() + "/" + c.channelB())) {
                if (!seen.add(end)) throw new RegistryException("ibc channel " + end + " is listed twice");
            }
        }
    }

    private static LayerZeroLane lane(JsonFields l, Registry r) {
        String from = l.string("from_chain_id");
        String to = l.string("to_chain_id");
        Asset in = requireAsset(l, r, from, l.string("denom_in"));
        Asset out = requireAsset(l, r, to, l.string("denom_out"));
        if (in.decimals() != out.decimals()) throw l.error("denom_in and denom_out must have the same decimals");
        if (!r.chain(from).hasEvm()) throw l.error(from + " has no EVM: a LayerZero lane starts on an EVM");
        JsonFields fee = l.object("messaging_fee");
        if (fee == null) throw l.error("messaging_fee is missing");
        Asset feeAsset = requireAsset(fee, r, from, fee.string("denom"));
        String oft = l.string("source_oft_contract_address");
        if (!dev.weft.chain.Hex.isHex(oft, 20))
            throw l.error("source_oft_contract_address must be a 20-byte 0x address");
        long duration = l.optLong("estimated_duration_seconds", -1, 0);
        return new LayerZeroLane(
                from,
                to,
                in.denom(),
                out.denom(),
                oft,
                l.longValue("source_endpoint_id", 1),
                l.longValue("destination_endpoint_id", 1),
                feeAsset.denom(),
                fee.positiveInteger("amount"),
                l.bool("adapter", true),
                duration < 0 ? null : Duration.ofSeconds(duration));
    }

    private static SwapVenue venue(JsonFields v, Registry r) {
        String chain = v.string("chain_id");
        if (r.chain(chain) == null) throw v.error("chain " + chain + " is not in the registry");
        String module = v.optString("module_address");
        if (module != null && !module.matches("0x[0-9a-fA-F]{1,64}"))
            throw v.error("module_address must be a Move address (0x and up to 64 hex digits)");
        String entryPoint = v.optString("hook_entry_point");
        if (entryPoint != null && !entryPoint.matches("0x[0-9a-fA-F]{1,64}"))
            throw v.error("hook_entry_point must be a Move address (0x and up to 64 hex digits)");
        if (entryPoint != null && !"move".equals(r.chain(chain).hooks()))
            throw v.error("hook_entry_point needs Move ibc-hooks on " + chain);
        List<SwapVenue.Pool> pools = new ArrayList<>();
        for (JsonFields p : v.objects("pools")) {
            if (module != null) throw p.error("a venue read from the chain (module_address) lists no pools");
            String type = p.string("type");
            Asset a = requireAsset(p, r, chain, p.string("denom_a"));
            Asset b = requireAsset(p, r, chain, p.string("denom_b"));
            if (a == b) throw p.error("a pool trades two different denoms");
            BigDecimal fee = p.decimal("fee_rate", BigDecimal.ZERO, ONE.movePointLeft(1));
            switch (type) {
                case "weighted", "constant_product" -> {
                    BigDecimal wa = p.optString("weight_a") == null
                            ? new BigDecimal("0.5")
                            : p.decimal("weight_a", BigDecimal.ZERO, ONE);
                    BigDecimal wb = ONE.subtract(wa);
                    if (wa.signum() == 0 || wb.signum() == 0) throw p.error("weight_a must be between 0 and 1");
                    pools.add(new SwapVenue.Pool(
                            p.string("pool"),
                            SwapVenue.PoolType.WEIGHTED,
                            a.denom(),
                            b.denom(),
                            p.positiveInteger("reserve_a"),
                            p.positiveInteger("reserve_b"),
                            fee,
                            wa,
                            wb,
                            0));
                }
                case "stableswap" -> {
                    if (a.decimals() != b.decimals()) throw p.error("a stableswap pool needs denoms of equal decimals");
                    pools.add(SwapVenue.Pool.stable(
                            p.string("pool"),
                            a.denom(),
                            b.denom(),
                            p.positiveInteger("reserve_a"),
                            p.positiveInteger("reserve_b"),
                            fee,
                            p.longValue("amplification", 1)));
                }
                default -> throw p.error("type must be weighted, constant_product or stableswap");
            }
        }
        return new SwapVenue(v.string("name"), chain, v.optString("logo_uri"), module, entryPoint, List.copyOf(pools));
    }

    private static Erc20Wrapper wrapper(JsonFields w, Registry r) {
        String chain = w.string("chain_id");
        Chain c = r.chain(chain);
        if (c == null || !c.isRollup() || !"evm".equals(c.vm()))
            throw w.error(chain + " is not a minievm rollup of the registry");
        Asset local = requireAsset(w, r, chain, w.string("local_denom"));
        Asset wrapped = requireAsset(w, r, chain, w.string("wrapped_denom"));
        if (!c.opBridge().opDenoms().stream()
                .map(d -> Denoms.l2(c.opBridge().bridgeId(), d))
                .toList()
                .contains(local.denom())) {
            throw w.error("local_denom must be a denom of the chain's OP bridge");
        }
        if (wrapped.decimals() < local.decimals())
            throw w.error("the wrapped token cannot have fewer decimals than the local one");
        String contract = w.string("contract");
        if (!dev.weft.chain.Hex.isHex(contract, 20)) throw w.error("contract must be a 20-byte 0x address");
        String fn = w.string("hook_function");
        if (!fn.equals("wrapAll(address)")) throw w.error("hook_function must be wrapAll(address)");
        return new Erc20Wrapper(chain, contract, local.denom(), wrapped.denom(), fn);
    }

    private static Asset requireAsset(JsonFields at, Registry r, String chain, String denom) {
        if (r.chain(chain) == null) throw at.error("chain " + chain + " is not in the registry");
        Asset a = r.asset(chain, denom);
        if (a == null) throw at.error("asset " + denom + " is not an asset of " + chain);
        return a;
    }
}
