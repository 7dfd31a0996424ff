package dev.weft.api;

import io.vertx.core.Future;
import java.util.Map;

/**
 * What is known of the indexed chain's tokens besides their movements (symbol, decimals), by token address as the API
 * writes it (lower-case 0x hex). The routing feature supplies it from its registry; {@link #NONE} knows nothing.
 */
public interface TokenMetadata {
    /** A token's symbol and decimals, each null when unknown. */
    record Info(String symbol, Integer decimals, String denom) {}

    Future<Map<String, Info>> byToken();

    TokenMetadata NONE = () -> Future.succeededFuture(Map.of());
}
