package dev.weft;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The documentation stays navigable: every relative link of the Markdown pages resolves (a file or directory, and for
 * a {@code #anchor} into a Markdown file a heading of that file), the two READMEs stay short, and the pages the README
 * points to exist.
 */
class DocsLinksTest {

    static final List<String> PAGES = List.of(
            "docs/operating.md",
            "docs/deploy.md",
            "docs/indexer-api.md",
            "docs/routing-api.md",
            "docs/tracking-and-push.md",
            "docs/devnet.md",
            "docs/benchmarks.md",
            "docs/known-limitations.md",
            "docs/ARCHITECTURE.md");

    /** {@code [text](target)} or {@code [text](target "title")}; images too. */
    private static final Pattern LINK =
            Pattern.compile("\\[[^\\]]*\\]\\(\\s*<?([^)\\s>]+)>?(?:\\s+\"[^\"]*\")?\\s*\\)");

    private static final Pattern HEADING = Pattern.compile("^ {0,3}(#{1,6})\\s+(.*?)\\s*#*\\s*$");

    @Test
    @DisplayName("every relative link of the Markdown pages resolves, anchors included")
    void everyRelativeLinkResolves() throws IOException {
        List<String> problems = new ArrayList<>();
        for (Path md : markdownFiles()) problems.addAll(brokenLinks(md));
        assertTrue(problems.isEmpty(), "broken links:\n" + String.join("\n", problems));
    }

    @Test
    @DisplayName("README.md stays at most 250 lines and bench/README.md at most 300")
    void readmesStayShort() throws IOException {
        long readme = Files.readAllLines(Path.of("README.md")).size();
        long bench = Files.readAllLines(Path.of("bench/README.md")).size();
        assertTrue(readme <= 250, "README.md has " + readme + " lines (at most 250)");
        assertTrue(bench <= 300, "bench/README.md has " + bench + " lines (at most 300)");
    }

    @Test
    @DisplayName("the documentation pages exist and the README links each of them")
    void pagesExistAndAreLinked() throws IOException {
        String readme = Files.readString(Path.of("README.md"));
        for (String page : PAGES) {
            assertTrue(Files.isRegularFile(Path.of(page)), page + " is missing");
            assertTrue(readme.contains("](" + page), "README.md does not link " + page);
        }
    }

    @Test
    @DisplayName("the checker reports a missing file, a missing anchor and a missing same-page anchor")
    void theCheckerCatchesBrokenLinks(@TempDir Path dir) throws IOException {
        Files.writeString(dir.resolve("other.md"), "# Other page\n\n## Known limitations\n");
        Path md = dir.resolve("page.md");
        Files.writeString(
                md,
                String.join(
                        "\n",
                        "# Title",
                        "",
                        "## Same page: `code`, too",
                        "",
                        "[ok](other.md) [ok](other.md#known-limitations) [ok](#same-page-code-too)",
                        "[ok](https://example.com/missing.md) `[not a link](nowhere.md)`",
                        "```",
                        "[in a code block](nowhere.md)",
                        "```",
                        "[missing file](nowhere.md)",
                        "[missing anchor](other.md#known-limits)",
                        "[missing here](#no-such-heading)",
                        ""));
        List<String> problems = brokenLinks(md);
        assertEquals(3, problems.size(), String.join("\n", problems));
        assertTrue(problems.get(0).contains("nowhere.md"), problems.get(0));
        assertTrue(problems.get(1).contains("other.md#known-limits"), problems.get(1));
        assertTrue(problems.get(2).contains("#no-such-heading"), problems.get(2));
    }

    @Test
    @DisplayName("anchors follow GitHub's slugs: lower case, spaces to '-', punctuation dropped but '-' and '_'")
    void slugs() {
        assertEquals(
                "latency-bound-catch-up-benchingest-latencysh",
                slug("Latency-bound catch-up: `bench/ingest-latency.sh`"));
        assertEquals("evm-internal-transactions", slug("EVM internal transactions"));
        assertEquals("a_b----c", slug("A_b -- C"));
    }

    static List<Path> markdownFiles() throws IOException {
        List<Path> files = new ArrayList<>();
        files.add(Path.of("README.md"));
        try (Stream<Path> docs = Files.list(Path.of("docs"))) {
            docs.filter(p -> p.toString().endsWith(".md")).sorted().forEach(files::add);
        }
        for (String f : List.of("bench/README.md", "cluster/README.md", "conf/registry/README.md"))
            if (Files.exists(Path.of(f))) files.add(Path.of(f));
        return files;
    }

    /** One line per link of {@code md} that does not resolve: {@code file:line: target (why)}. */
    static List<String> brokenLinks(Path md) throws IOException {
        List<String> problems = new ArrayList<>();
        List<String> lines = Files.readAllLines(md);
        boolean fenced = false;
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            if (line.trim().startsWith("```")) {
                fenced = !fenced;
                continue;
            }
            if (fenced) continue;
            Matcher m = LINK.matcher(withoutCodeSpans(line));
            while (m.find()) {
                String target = m.group(1);
                String why = check(md, target);
                if (why != null) problems.add(md + ":" + (i + 1) + ": " + target + " (" + why + ")");
            }
        }
        return problems;
    }

    /** Why a link target does not resolve, or null when it does (or is not relative). */
    private static String check(Path md, String target) throws IOException {
        if (target.matches("^[a-zA-Z][a-zA-Z0-9+.-]*:.*")) return null; // https:, mailto:, …
        int hash = target.indexOf('#');
        String path = hash < 0 ? target : target.substring(0, hash);
        String anchor = hash < 0 ? null : target.substring(hash + 1);
        Path file = path.isEmpty()
                ? md
                : md.toAbsolutePath().getParent().resolve(path).normalize();
        if (!Files.exists(file)) return "no such file or directory";
        if (anchor == null || anchor.isEmpty()) return null;
        if (!file.toString().endsWith(".md")) return null;
        if (!anchors(file).contains(anchor)) return "no heading with this anchor in " + file.getFileName();
        return null;
    }

    /** The anchors of a Markdown file's headings, as GitHub derives them (a repeated slug gets -1, -2, …). */
    static Set<String> anchors(Path md) throws IOException {
        Set<String> out = new LinkedHashSet<>();
        Map<String, Integer> seen = new HashMap<>();
        boolean fenced = false;
        for (String line : Files.readAllLines(md)) {
            if (line.trim().startsWith("```")) {
                fenced = !fenced;
                continue;
            }
            if (fenced) continue;
            Matcher h = HEADING.matcher(line);
            if (!h.matches()) continue;
            String s = slug(h.group(2));
            int n = seen.merge(s, 1, Integer::sum);
            out.add(n == 1 ? s : s + "-" + (n - 1));
        }
        return out;
    }

    static String slug(String heading) {
        String text = heading.replaceAll("\\[([^\\]]*)\\]\\([^)]*\\)", "$1"); // a link's text only
        return text.toLowerCase(Locale.ROOT)
                .replaceAll("[^\\p{L}\\p{N} _-]", "")
                .replace(' ', '-');
    }

    private static String withoutCodeSpans(String line) {
        return line.replaceAll("`[^`]*`", "");
    }
}
