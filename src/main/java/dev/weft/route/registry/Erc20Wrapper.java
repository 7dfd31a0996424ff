package dev.weft.route.registry;

/**
 * An ERC-20 wrapper on a minievm rollup that turns a bridged Cosmos coin ({@code localDenom}, e.g. the rollup's
 * {@code l2/} INIT with 6 decimals) into an ERC-20 ({@code wrappedDenom}, e.g. 18 decimals). An OPinit deposit that
 * should arrive as the wrapped token carries a signed OP hook calling {@code hookFunction} on {@code contract}.
 */
public record Erc20Wrapper(
        String chainId, String contract, String localDenom, String wrappedDenom, String hookFunction) {}
