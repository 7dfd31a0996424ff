package dev.weft.testsupport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * Runs a Node script of {@code src/test/node} with the pinned Skip-client toolset's packages (cosmjs, ethers) on its
 * module path ({@code SKIP_CLIENT_MODULES}), its input as the one argument; the script's standard output once it
 * exits with 0 (its standard error goes to the test's).
 */
public final class SkipClientScripts {
    private SkipClientScripts() {}

    public static String run(String script, String input) throws Exception {
        Path modules = Toolsets.file("skip-client", "node_modules/ethers/package.json")
                .getParent()
                .getParent();
        ProcessBuilder pb = new ProcessBuilder(
                        "node",
                        Path.of("src/test/node", script).toAbsolutePath().toString(),
                        input)
                .redirectError(ProcessBuilder.Redirect.INHERIT);
        pb.environment().put("SKIP_CLIENT_MODULES", modules.toString());
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(2, TimeUnit.MINUTES), script + " did not finish");
        assertEquals(0, p.exitValue(), out);
        return out.trim();
    }
}
