package dev.weft.config;

/**
 * Bounds of the account views' heavier reads.
 *
 * @param evmLogsMaxRange the most heights one {@code /indexer/evm/v1/logs} request may span ({@code api.evm_logs.max_range})
 */
public record ViewsConfig(long evmLogsMaxRange) {
    public static ViewsConfig from(ConfigSource c) {
        return new ViewsConfig(c.longValue("api.evm_logs.max_range", 10_000, 1, 1_000_000));
    }
}
