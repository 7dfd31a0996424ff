package dev.weft.devnet.registry;

import dev.weft.chain.AccountAddress;
import dev.weft.chain.Hex;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * What the devnet reads of a registry file (the format of {@code conf/registry/*.json}): the chains it simulates, their
 * transfer channels, OPinit bridges, assets, swap venues and LayerZero lanes. The devnet's own reader, apart from the
 * router's: it takes only what the simulated chains need, and derives the assets the chains imply the way the chains
 * themselves would (an OPinit bridge's deposited denoms on its rollup; each asset sent one IBC hop over a channel).
 */
public final class DevnetRegistry {

    /**
     * A chain: {@code chainType} {@code cosmos} or {@code evm}; {@code vm} {@code move}, {@code evm}, {@code wasm} or
     * null; {@code feeDenom} its first fee asset (null when none).
     */
    public record Chain(
            String chainId,
            String chainType,
            String vm,
            boolean l1,
            String bech32Prefix,
            String feeDenom,
            OpBridge opBridge,
            boolean pfm,
            String hooks) {

        public boolean isEvmChain() {
            return "evm".equals(chainType);
        }

        /** Accounts are 20-byte EVM addresses that may also sign EVM txs (EVM chains and minievm rollups). */
        public boolean hasEvm() {
            return isEvmChain() || "evm".equals(vm);
        }

        /**
         * Whether the chain's address codec takes {@code s}: 0x hex of 20 bytes on chains with an EVM; bech32 with the
         * chain's prefix (20 or 32 bytes) on Cosmos chains.
         */
        public boolean acceptsAddress(String s) {
            if (s == null) return false;
            String t = s.trim();
            if (t.startsWith("0x") || t.startsWith("0X")) return hasEvm() && Hex.isHex(t, 20);
            if (isEvmChain() || bech32Prefix == null) return false;
            if (!t.toLowerCase(Locale.ROOT).startsWith(bech32Prefix + "1")) return false;
            return AccountAddress.isValid(t, bech32Prefix);
        }
    }

    public record OpBridge(long bridgeId, String l1ChainId, List<String> opDenoms) {}

    public record Channel(String port, String chainA, String channelA, String chainB, String channelB) {}

    /** An asset on a chain; {@code ibcPath} is its full ICS-20 path (the denom itself when it has no hop). */
    public record Asset(String chainId, String denom, String tokenContract, String ibcPath) {}

    public record Venue(String chainId, String hookEntryPoint) {}

    public record Lane(
            String fromChainId,
            String toChainId,
            String denomIn,
            String denomOut,
            String sourceOftContract,
            long sourceEndpointId,
            long destinationEndpointId) {}

    private final Map<String, Chain> chains;
    private final List<Channel> channels;
    private final List<Asset> assets;
    private final List<Venue> venues;
    private final List<Lane> lanes;

    private DevnetRegistry(
            Map<String, Chain> chains,
            List<Channel> channels,
            List<Asset> assets,
            List<Venue> venues,
            List<Lane> lanes) {
        this.chains = chains;
        this.channels = channels;
        this.assets = assets;
        this.venues = venues;
        this.lanes = lanes;
    }

    /** Reads a registry file, or the copy bundled in the jar under the same path (blocking: file IO). */
    public static DevnetRegistry load(String file) {
        try {
            Path p = Path.of(file);
            if (Files.exists(p)) return parse(new JsonObject(Files.readString(p)));
            try (InputStream in =
                    DevnetRegistry.class.getClassLoader().getResourceAsStream(file.replaceFirst("^\\./", ""))) {
                if (in == null) throw new IllegalArgumentException("devnet registry " + file + " not found");
                return parse(new JsonObject(new String(in.readAllBytes(), StandardCharsets.UTF_8)));
            }
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read devnet registry " + file + ": " + e.getMessage(), e);
        }
    }

    public static DevnetRegistry parse(JsonObject json) {
        Map<String, Chain> chains = new LinkedHashMap<>();
        for (JsonObject c : objects(json, "chains")) {
            JsonObject bridge = c.getJsonObject("op_bridge");
            JsonObject conf = c.getJsonObject("configuration", new JsonObject());
            List<JsonObject> fees = objects(c, "fee_assets");
            chains.put(
                    c.getString("chain_id"),
                    new Chain(
                            c.getString("chain_id"),
                            c.getString("chain_type", "cosmos"),
                            c.getString("vm"),
                            c.getBoolean("is_l1", false),
                            c.getString("bech32_prefix"),
                            fees.isEmpty() ? null : fees.get(0).getString("denom"),
                            bridge == null
                                    ? null
                                    : new OpBridge(
                                            Long.parseLong(String.valueOf(bridge.getValue("bridge_id"))),
                                            bridge.getString("l1_chain_id"),
                                            strings(bridge.getJsonArray("op_denoms"))),
                            conf.getBoolean("pfm_enabled", false),
                            conf.getString("hooks")));
        }
        List<Channel> channels = new ArrayList<>();
        for (JsonObject ch : objects(json, "ibc_channels")) {
            channels.add(new Channel(
                    ch.getString("port", "transfer"),
                    ch.getString("chain_a"),
                    ch.getString("channel_a"),
                    ch.getString("chain_b"),
                    ch.getString("channel_b")));
        }
        List<Venue> venues = new ArrayList<>();
        for (JsonObject v : objects(json, "swap_venues"))
            venues.add(new Venue(v.getString("chain_id"), v.getString("hook_entry_point")));
        List<Lane> lanes = new ArrayList<>();
        for (JsonObject l : objects(json, "layer_zero_lanes")) {
            lanes.add(new Lane(
                    l.getString("from_chain_id"),
                    l.getString("to_chain_id"),
                    l.getString("denom_in"),
                    l.getString("denom_out"),
                    l.getString("source_oft_contract_address"),
                    l.getLong("source_endpoint_id"),
                    l.getLong("destination_endpoint_id")));
        }
        Set<String> receivedOnly = new LinkedHashSet<>();
        for (JsonObject w : objects(json, "erc20_wrappers"))
            receivedOnly.add(w.getString("chain_id") + "/" + w.getString("wrapped_denom"));
        return new DevnetRegistry(
                Map.copyOf(chains),
                List.copyOf(channels),
                derive(chains, channels, listed(json), receivedOnly),
                List.copyOf(venues),
                List.copyOf(lanes));
    }

    /** The listed assets; an {@code ibc/} denom takes the path of its ibc trace (checked against the denom). */
    private static List<Asset> listed(JsonObject json) {
        List<Asset> out = new ArrayList<>();
        for (JsonObject a : objects(json, "assets")) {
            String denom = a.getString("denom");
            String path = denom;
            for (JsonObject t : objects(a, "traces")) {
                if (!"ibc".equals(t.getString("type"))) continue;
                path = t.getString("path");
                String voucher = ChainDenoms.ibcVoucher(path);
                if (!voucher.equalsIgnoreCase(denom))
                    throw new IllegalArgumentException(
                            "devnet registry: " + denom + " is not the voucher of its path " + path);
                denom = voucher;
            }
            out.add(new Asset(a.getString("chain_id"), denom, a.getString("token_contract"), path));
        }
        return out;
    }

    /**
     * The listed assets, then what the chains imply: every deposited denom of an OPinit bridge on its rollup, then
     * every asset (listed or deposited, except tokens that are only ever received) moved one IBC hop over each
     * channel, both ways. One round only: a chain holds what one hop brings.
     */
    private static List<Asset> derive(
            Map<String, Chain> chains, List<Channel> channels, List<Asset> listed, Set<String> receivedOnly) {
        Map<String, Asset> all = new LinkedHashMap<>();
        for (Asset a : listed) all.putIfAbsent(a.chainId() + "/" + a.denom(), a);
        for (Chain c : chains.values()) {
            if (c.opBridge() == null) continue;
            for (String l1Denom : c.opBridge().opDenoms()) {
                String l2 = ChainDenoms.opDeposit(c.opBridge().bridgeId(), l1Denom);
                all.putIfAbsent(c.chainId() + "/" + l2, new Asset(c.chainId(), l2, null, l2));
            }
        }
        List<Asset> movable = all.values().stream()
                .filter(a -> !receivedOnly.contains(a.chainId() + "/" + a.denom()) && !pathUnknown(a))
                .toList();
        for (Channel ch : channels) {
            hop(all, movable, ch.port(), ch.chainA(), ch.channelA(), ch.chainB(), ch.channelB());
            hop(all, movable, ch.port(), ch.chainB(), ch.channelB(), ch.chainA(), ch.channelA());
        }
        return List.copyOf(all.values());
    }

    private static void hop(
            Map<String, Asset> all, List<Asset> movable, String port, String from, String out, String to, String in) {
        for (Asset a : movable) {
            if (!a.chainId().equals(from)) continue;
            String path = ChainDenoms.afterTransfer(a.ibcPath(), port, out, in);
            String denom = ChainDenoms.onChain(path);
            Asset known = all.get(to + "/" + denom);
            if (known == null) all.put(to + "/" + denom, new Asset(to, denom, null, path));
            else if (pathUnknown(known)) all.put(to + "/" + denom, new Asset(to, denom, known.tokenContract(), path));
        }
    }

    /** A voucher listed without its ibc trace: the hop that produces it gives its path. */
    private static boolean pathUnknown(Asset a) {
        return a.denom().startsWith("ibc/") && a.ibcPath().equals(a.denom());
    }

    private static List<JsonObject> objects(JsonObject o, String key) {
        JsonArray a = o.getJsonArray(key);
        List<JsonObject> out = new ArrayList<>();
        if (a != null) for (Object x : a) if (x instanceof JsonObject j) out.add(j);
        return out;
    }

    private static List<String> strings(JsonArray a) {
        List<String> out = new ArrayList<>();
        if (a != null) for (Object x : a) out.add(String.valueOf(x));
        return List.copyOf(out);
    }

    public Chain chain(String chainId) {
        return chains.get(chainId);
    }

    public List<Channel> channels() {
        return channels;
    }

    /** Every asset: the listed ones in file order, then the derived ones. */
    public List<Asset> assets() {
        return assets;
    }

    public List<Asset> assetsOn(String chainId) {
        return assets.stream().filter(a -> a.chainId().equals(chainId)).toList();
    }

    public Asset asset(String chainId, String denom) {
        for (Asset a : assets) if (a.chainId().equals(chainId) && a.denom().equals(denom)) return a;
        return null;
    }

    public List<Venue> venues() {
        return venues;
    }

    public List<Lane> lanes() {
        return lanes;
    }
}
