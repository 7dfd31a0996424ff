package dev.weft.route.registry;

import dev.weft.chain.Hex;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The assets of a registry: the listed ones (with their {@code ibc/} and {@code l2/} denoms re-derived from their traces
 * and checked), plus the ones the chains imply:
 * <ol>
 *   <li>every denom an OPinit bridge carries ({@code op_denoms}) exists on the rollup as its {@code l2/} denom;</li>
 *   <li>every asset sent one IBC hop over a transfer channel exists on the other side, as the {@code ibc/} denom of the
 *       longer path, or as the denom it had there when the hop unwinds its last one.</li>
 * </ol>
 * The second step runs once over the listed and OP assets (not over its own results), which bounds the graph.
 * Origins follow IBC paths through the channel table and OP denoms to their L1 denom.
 */
final class AssetDerivation {
    private AssetDerivation() {}

    /**
     * A listed asset before derivation, with the L1 denom of its OP trace (null when none). An {@code ibc/} denom listed
     * without a trace ({@code pathKnown} false) must be explained by one IBC hop of another asset.
     */
    record Listed(Asset asset, String opL1Denom, boolean pathKnown, String where) {}

    static Listed listed(JsonFields a, Map<String, Chain> chains) {
        String chainId = a.string("chain_id");
        String denom = a.string("denom");
        JsonFields at = new JsonFields(a.json(), a.where() + " (" + chainId + " " + denom + ")");
        Chain chain = chains.get(chainId);
        if (chain == null) throw at.error("chain " + chainId + " is not in the registry");
        String ibcPath = denom;
        String opL1Denom = null;
        String ibcTracePath = null;
        for (JsonFields t : at.objects("traces")) {
            String type = t.string("type");
            if (type.equals("ibc")) {
                ibcTracePath = t.string("path");
            } else if (type.equals("op")) {
                long bridge = t.longValue("bridge_id", 1);
                if (chain.opBridge() == null || chain.opBridge().bridgeId() != bridge) {
                    throw at.error("op trace names bridge " + bridge + ", which is not the OP bridge of " + chainId);
                }
                opL1Denom = t.string("counterparty_denom");
                String derived = Denoms.l2(bridge, opL1Denom);
                if (!derived.equals(denom)) {
                    throw at.error("denom does not match its op trace: sha3-256(bridge " + bridge + ", " + opL1Denom
                            + ") gives " + derived);
                }
            } else {
                throw at.error("trace type must be ibc or op (got " + type + ")");
            }
        }
        boolean pathKnown = true;
        if (denom.startsWith("ibc/") && ibcTracePath == null) {
            pathKnown = false;
        } else if (denom.startsWith("ibc/")) {
            String derived = Denoms.ibc(ibcTracePath);
            if (!derived.equals("ibc/" + denom.substring(4).toUpperCase(Locale.ROOT))) {
                throw at.error("denom does not match its ibc trace: sha256(" + ibcTracePath + ") gives " + derived);
            }
            ibcPath = ibcTracePath;
            denom = derived;
        }
        String contract = at.optString("token_contract");
        if (contract != null && !Hex.isHex(contract, 20)) throw at.error("token_contract must be a 20-byte 0x address");
        int decimals = at.intValue("decimals", 0, 36);
        Asset asset = new Asset(
                chainId,
                denom,
                at.string("symbol"),
                at.optString("name"),
                decimals,
                at.optString("description"),
                at.optString("coingecko_id"),
                at.optString("logo_uri"),
                contract,
                ibcPath,
                Denoms.traceOf(ibcPath),
                chainId,
                denom,
                false);
        return new Listed(asset, opL1Denom, pathKnown, at.where());
    }

    /**
     * @param depositOnly keys ({@code chain/denom}) of assets that are only reached, never sent on (ERC-20 wrappers'
     *                    wrapped tokens): no IBC hop is derived from them
     */
    static List<Asset> derive(
            Map<String, Chain> chains, List<IbcChannel> channels, List<Listed> listed, Set<String> depositOnly) {
        Map<String, Asset> all = new LinkedHashMap<>();
        Map<String, String> opSource = new LinkedHashMap<>();
        Map<String, Listed> unexplained = new LinkedHashMap<>();
        for (Listed l : listed) {
            if (all.putIfAbsent(l.asset().key(), l.asset()) != null) {
                throw new RegistryException(l.where() + ": asset " + l.asset().key() + " is listed twice");
            }
            if (!l.pathKnown()) unexplained.put(l.asset().key(), l);
            if (l.opL1Denom() != null) opSource.put(l.asset().key(), l.asset().chainId() + "/" + l.opL1Denom());
        }
        for (Chain c : chains.values()) {
            OpBridge b = c.opBridge();
            if (b == null) continue;
            for (String l1Denom : b.opDenoms()) {
                Asset l1 = all.get(b.l1ChainId() + "/" + l1Denom);
                if (l1 == null)
                    throw new RegistryException(
                            c.chainId() + ": op denom " + l1Denom + " is not an asset of " + b.l1ChainId());
                String l2 = Denoms.l2(b.bridgeId(), l1Denom);
                String key = c.chainId() + "/" + l2;
                all.putIfAbsent(
                        key,
                        new Asset(
                                c.chainId(),
                                l2,
                                l1.symbol(),
                                l1.name(),
                                l1.decimals(),
                                l1.description(),
                                l1.coingeckoId(),
                                l1.logoUri(),
                                null,
                                l2,
                                "",
                                c.chainId(),
                                l2,
                                true));
                opSource.put(key, b.l1ChainId() + "/" + l1Denom);
            }
        }
        List<Asset> snapshot = all.values().stream()
                .filter(a -> !unexplained.containsKey(a.key()) && !depositOnly.contains(a.key()))
                .toList();
        for (IbcChannel ch : channels) {
            for (String side : List.of(ch.chainA(), ch.chainB())) {
                String other = ch.counterpartyChain(side);
                for (Asset a : snapshot) {
                    if (!a.chainId().equals(side)) continue;
                    String path = Denoms.pathAfterTransfer(
                            a.ibcPath(), ch.port(), ch.channelOn(side), ch.counterpartyChannel(side));
                    String denom = Denoms.denomOfPath(path);
                    Listed pending = unexplained.remove(other + "/" + denom);
                    if (pending != null) {
                        Asset p = pending.asset();
                        all.put(
                                p.key(),
                                new Asset(
                                        p.chainId(),
                                        p.denom(),
                                        p.symbol(),
                                        p.name(),
                                        p.decimals(),
                                        p.description(),
                                        p.coingeckoId(),
                                        p.logoUri(),
                                        p.tokenContract(),
                                        path,
                                        Denoms.traceOf(path),
                                        p.chainId(),
                                        p.denom(),
                                        false));
                    }
                    all.putIfAbsent(
                            other + "/" + denom,
                            new Asset(
                                    other,
                                    denom,
                                    a.symbol(),
                                    a.name(),
                                    a.decimals(),
                                    a.description(),
                                    a.coingeckoId(),
                                    a.logoUri(),
                                    null,
                                    path,
                                    Denoms.traceOf(path),
                                    other,
                                    denom,
                                    true));
                }
            }
        }
        for (Listed l : unexplained.values()) {
            throw new RegistryException(l.where()
                    + ": an ibc/ denom without an ibc trace must be one IBC hop of another asset over a"
                    + " channel of the registry, and none gives " + l.asset().denom());
        }
        Map<String, IbcChannel> channelIndex = new LinkedHashMap<>();
        for (IbcChannel c : channels) {
            channelIndex.put(c.chainA() + "/" + c.channelA(), c);
            channelIndex.put(c.chainB() + "/" + c.channelB(), c);
        }
        List<Asset> out = new ArrayList<>();
        for (Asset a : all.values()) {
            String origin = origin(a.key(), all, opSource, channelIndex, 0);
            int slash = origin.indexOf('/');
            out.add(a.withOrigin(origin.substring(0, slash), origin.substring(slash + 1)));
        }
        return out;
    }

    /** The origin ({@code chain/denom}) of an asset: through OP denoms to the L1 denom, through IBC paths to the base. */
    private static String origin(
            String key,
            Map<String, Asset> all,
            Map<String, String> opSource,
            Map<String, IbcChannel> channels,
            int depth) {
        if (depth > 16) return key;
        String l1 = opSource.get(key);
        if (l1 != null) return all.containsKey(l1) ? origin(l1, all, opSource, channels, depth + 1) : l1;
        Asset a = all.get(key);
        if (a == null || !Denoms.hasHops(a.ibcPath())) return key;
        String chain = a.chainId();
        String path = a.ibcPath();
        while (Denoms.hasHops(path)) {
            int first = path.indexOf('/');
            int second = path.indexOf('/', first + 1);
            IbcChannel ch = channels.get(chain + "/" + path.substring(first + 1, second));
            if (ch == null) return key;
            chain = ch.counterpartyChain(chain);
            path = path.substring(second + 1);
        }
        String base = chain + "/" + path;
        return all.containsKey(base) ? origin(base, all, opSource, channels, depth + 1) : base;
    }
}
