package dev.weft.ingest.verify;

import java.nio.file.Path;

/**
 * The command line of {@code verify} and {@code reindex}: {@code --from H1 --to H2 [--chain C] [--config FILE]}. A
 * bad argument is an {@link IllegalArgumentException} whose message names it.
 */
record RangeArgs(boolean reindex, long from, long to, String chain, Path config) {
    static final String USAGE =
            "usage: java -jar weft.jar verify|reindex --from H1 --to H2 [--chain CHAIN_ID] [--config FILE]";

    static boolean isCommand(String word) {
        return "verify".equals(word) || "reindex".equals(word);
    }

    /** @param args the command word, then its options */
    static RangeArgs parse(String[] args) {
        if (args.length == 0 || !isCommand(args[0])) throw new IllegalArgumentException(USAGE);
        Long from = null;
        Long to = null;
        String chain = null;
        Path config = null;
        for (int i = 1; i < args.length; i++) {
            String a = args[i];
            String value = null;
            int eq = a.indexOf('=');
            if (a.startsWith("--") && eq > 0) {
                value = a.substring(eq + 1);
                a = a.substring(0, eq);
            }
            switch (a) {
                case "--from" -> from = height(a, value != null ? value : value(args, ++i, a));
                case "--to" -> to = height(a, value != null ? value : value(args, ++i, a));
                case "--chain" -> chain = value != null ? value : value(args, ++i, a);
                case "--config" -> config = Path.of(value != null ? value : value(args, ++i, a));
                default -> throw new IllegalArgumentException("unknown option " + a + "; " + USAGE);
            }
        }
        if (from == null) throw new IllegalArgumentException("--from is required; " + USAGE);
        if (to == null) throw new IllegalArgumentException("--to is required; " + USAGE);
        if (to < from) throw new IllegalArgumentException("--to " + to + " is below --from " + from);
        return new RangeArgs("reindex".equals(args[0]), from, to, chain, config);
    }

    String name() {
        return reindex ? "reindex" : "verify";
    }

    private static long height(String option, String value) {
        try {
            long h = Long.parseLong(value);
            if (h >= 1) return h;
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException(option + " must be a height of at least 1, not '" + value + "'");
    }

    private static String value(String[] args, int i, String option) {
        if (i >= args.length || args[i].startsWith("--"))
            throw new IllegalArgumentException(option + " needs a value; " + USAGE);
        return args[i];
    }
}
