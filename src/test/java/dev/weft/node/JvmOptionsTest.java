package dev.weft.node;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * {@code conf/jvm.options}, the JVM options file of every Weft process ({@code java @conf/jvm.options -jar …}, the
 * image's entrypoint, the cluster and bench scripts): a JVM started with it starts, and every {@code -XX} option in it
 * is in force as written (a misspelt or retired flag would stop the JVM or be ignored).
 */
class JvmOptionsTest {
    private static final Path FILE = Path.of("conf/jvm.options");
    private static final Pattern XX = Pattern.compile("-XX:([+-]?)(\\w+)(?:=(.*))?");

    @Test
    @DisplayName("a JVM starts with conf/jvm.options and applies each -XX option in it from the command line")
    void optionsApply() throws Exception {
        List<String> options = options();
        assertFalse(options.isEmpty(), "no option in " + FILE);
        Process p = new ProcessBuilder(
                        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                        "@" + FILE,
                        "-XX:+PrintFlagsFinal",
                        "-version")
                .redirectErrorStream(true)
                .start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        assertEquals(0, p.exitValue(), out);
        for (String option : options) {
            Matcher m = XX.matcher(option);
            if (!m.matches()) continue;
            String expected =
                    m.group(3) != null ? m.group(3) : String.valueOf(m.group(1).equals("+"));
            Pattern line = Pattern.compile(
                    "\\s" + m.group(2) + "\\s+= " + Pattern.quote(expected) + "\\s.*\\{command line\\}");
            assertTrue(
                    out.lines().anyMatch(l -> line.matcher(l).find()),
                    option + " is not in force:\n"
                            + out.lines().filter(l -> l.contains(m.group(2))).toList());
        }
    }

    /** The file's options: one or more per line, {@code #} starts a comment (the java launcher's argument-file rules). */
    private static List<String> options() throws Exception {
        List<String> out = new ArrayList<>();
        for (String l : Files.readAllLines(FILE)) {
            int hash = l.indexOf('#');
            for (String o : (hash >= 0 ? l.substring(0, hash) : l).trim().split("\\s+")) if (!o.isEmpty()) out.add(o);
        }
        return out;
    }
}
