package dev.weft.route.registry;

/**
 * A fungible asset on one chain: a node of the route graph.
 *
 * @param ibcPath       the full ICS-20 path of an {@code ibc/} denom ({@code transfer/channel-3/uusdc}); the denom itself
 *                      for every other denom (the path it has when it leaves its chain)
 * @param trace         Skip's {@code trace}: the port/channel hops of {@link #ibcPath} without the base denom ("" when none)
 * @param tokenContract the ERC-20 contract of the asset on chains with an EVM (its {@code 0x} address), else null
 * @param derived       not listed by the registry: derived from an OPinit bridge's denoms or one IBC hop of a listed asset
 */
public record Asset(
        String chainId,
        String denom,
        String symbol,
        String name,
        int decimals,
        String description,
        String coingeckoId,
        String logoUri,
        String tokenContract,
        String ibcPath,
        String trace,
        String originChainId,
        String originDenom,
        boolean derived) {

    public boolean isNative() {
        return originChainId.equals(chainId) && originDenom.equals(denom);
    }

    public String key() {
        return chainId + "/" + denom;
    }

    public Asset withOrigin(String chain, String denom) {
        return new Asset(
                chainId,
                this.denom,
                symbol,
                name,
                decimals,
                description,
                coingeckoId,
                logoUri,
                tokenContract,
                ibcPath,
                trace,
                chain,
                denom,
                derived);
    }
}
