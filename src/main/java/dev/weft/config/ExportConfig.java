package dev.weft.config;

/**
 * Bounds of the CSV exports ({@code format=csv} on an account's txs and transfers).
 *
 * @param maxRows  the most data rows one export writes ({@code export.max_rows}); the export ends there
 * @param pageRows the rows each keyset query of an export reads, and so what one export holds in memory at most
 *                 ({@code export.page_rows})
 */
public record ExportConfig(int maxRows, int pageRows) {
    public static ExportConfig from(ConfigSource c) {
        return new ExportConfig(
                c.intValue("export.max_rows", 10_000, 1, 1_000_000), c.intValue("export.page_rows", 500, 1, 1_000));
    }
}
