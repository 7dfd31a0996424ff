package dev.weft;

import dev.weft.config.ConfigException;
import dev.weft.config.WeftConfig;
import dev.weft.ingest.verify.RangeCommand;
import dev.weft.node.LogLevels;
import dev.weft.node.WeftNode;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * {@code java -jar weft.jar [--config FILE] [--roles api,ingest,evm,richlist,route,track,devnet] [--cluster]
 * [--cluster-host H]}, or {@code verify|reindex --from H1 --to H2 [--chain C] [--config FILE]} ({@link RangeCommand}). Start-up problems end the process with one line on stderr and a non-zero exit code.
 */
public final class Main {
    static final String USAGE =
            "usage: java -jar weft.jar [--config FILE] [--roles all|api,ingest,evm,richlist,route,track,devnet,db] [--cluster] [--cluster-host HOST]";

    private Main() {}

    /** The parsed command line: the config file (null = default) and overrides by dotted config key. */
    record Cli(Path configFile, Map<String, String> overrides, boolean help) {}

    public static void main(String[] args) {
        System.setProperty("hazelcast.logging.type", "slf4j");
        System.setProperty("hazelcast.phone.home.enabled", "false");
        if (RangeCommand.handles(args)) {
            System.exit(RangeCommand.main(args, System.out, System.err));
            return;
        }
        Cli cli;
        WeftConfig config;
        try {
            cli = parse(args);
            if (cli.help()) {
                System.out.println(USAGE);
                return;
            }
            config = WeftConfig.load(cli.configFile(), cli.overrides());
            WeftNode.checkPlugins(config);
        } catch (ConfigException | IllegalArgumentException e) {
            System.err.println("weft: " + e.getMessage());
            System.exit(2);
            return;
        }
        LogLevels.apply(config.log());
        CompletableFuture<WeftNode> started = new CompletableFuture<>();
        WeftNode.start(config).onComplete(ar -> {
            if (ar.succeeded()) started.complete(ar.result());
            else started.completeExceptionally(ar.cause());
        });
        WeftNode node;
        try {
            node = started.get();
        } catch (Exception e) {
            Throwable cause = e.getCause() != null ? e.getCause() : e;
            System.err.println("weft: start-up failed: " + oneLine(cause));
            System.exit(1);
            return;
        }
        node.banner().forEach(System.out::println);
        Runtime.getRuntime()
                .addShutdownHook(new Thread(
                        () -> {
                            try {
                                node.stop()
                                        .toCompletionStage()
                                        .toCompletableFuture()
                                        .get(30, TimeUnit.SECONDS);
                            } catch (Exception e) {
                                System.err.println("weft: shutdown: " + oneLine(e));
                            }
                        },
                        "weft-shutdown"));
    }

    static Cli parse(String[] args) {
        Path file = null;
        Map<String, String> overrides = new LinkedHashMap<>();
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            String inlineValue = null;
            int eq = a.indexOf('=');
            if (a.startsWith("--") && eq > 0) {
                inlineValue = a.substring(eq + 1);
                a = a.substring(0, eq);
            }
            switch (a) {
                case "--help", "-h" -> {
                    return new Cli(null, Map.of(), true);
                }
                case "--config" -> file = Path.of(inlineValue != null ? inlineValue : value(args, ++i, a));
                case "--roles" -> overrides.put("node.roles", inlineValue != null ? inlineValue : value(args, ++i, a));
                case "--cluster" -> overrides.put("cluster.enabled", "true");
                case "--cluster-host" ->
                    overrides.put("cluster.host", inlineValue != null ? inlineValue : value(args, ++i, a));
                default -> throw new IllegalArgumentException("unknown option " + a + "; " + USAGE);
            }
        }
        return new Cli(file, overrides, false);
    }

    private static String value(String[] args, int i, String option) {
        if (i >= args.length || args[i].startsWith("--"))
            throw new IllegalArgumentException("option " + option + " needs a value; " + USAGE);
        return args[i];
    }

    static String oneLine(Throwable e) {
        String m = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
        return m.replaceAll("[\\r\\n]+", " ");
    }
}
