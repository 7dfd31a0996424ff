package dev.weft.route;

import dev.weft.route.graph.RoutePath;
import dev.weft.route.registry.Asset;
import io.vertx.core.json.JsonObject;
import java.math.BigInteger;
import java.util.List;

/**
 * A computed route: the request, the resolved assets, the path, and where each operation starts and ends in the
 * sequence of chain visits ({@code chainIds}, which is also {@code required_chain_addresses}).
 *
 * @param evmSigned the first tx is an EVM transaction (the source is an EVM chain, or the client named the source asset
 *                  by its ERC-20 contract on a minievm rollup)
 * @param affiliateFee the quoted integrator fee ({@code cumulative_affiliate_fee_bps} of the swap's output, or of the
 *                  input on a transfer-only route; zero without one)
 * @param affiliateOp the operation after which the fee is taken (the swap), or -1: before the first (transfer-only)
 */
public record ComputedRoute(
        RouteRequest request,
        Asset source,
        Asset dest,
        boolean evmSigned,
        RoutePath path,
        List<String> chainIds,
        int[] fromVisit,
        int[] toVisit,
        JsonObject json,
        BigInteger affiliateFee,
        int affiliateOp) {

    public boolean requiresOpHook() {
        return json.getBoolean("required_op_hook");
    }
}
