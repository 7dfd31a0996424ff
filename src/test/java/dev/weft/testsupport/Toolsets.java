package dev.weft.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * The external tools the tests use, as fetched by {@code tools/fetch.sh} into the project-local cache
 * {@code .tools/npm/<toolset>} (from {@code tools/npm/<toolset>}: pinned package.json + package-lock.json). Tests only
 * read the cache: a toolset that is missing or older than its lockfile fails with the command that fetches it.
 */
public final class Toolsets {
    static final String FETCH = "tools/fetch.sh";
    private static final Path ROOT = Path.of("").toAbsolutePath();

    private Toolsets() {}

    /** The file {@code relative} inside the fetched toolset {@code name}, checked to exist and to match the lockfile. */
    public static Path file(String name, String relative) {
        Path dir = ROOT.resolve(".tools/npm").resolve(name);
        Path file = dir.resolve(relative);
        Path lock = ROOT.resolve("tools/npm").resolve(name).resolve("package-lock.json");
        if (!Files.exists(dir.resolve(".fetched")) || !Files.exists(file)) {
            throw new IllegalStateException(
                    "the '" + name + "' toolset is not fetched (" + file + " is missing): run " + FETCH);
        }
        if (!sameBytes(lock, dir.resolve("package-lock.json"))) {
            throw new IllegalStateException("the '" + name + "' toolset in " + dir + " is older than "
                    + ROOT.relativize(lock) + ": run " + FETCH);
        }
        return file;
    }

    private static boolean sameBytes(Path a, Path b) {
        try {
            return Files.exists(b) && Arrays.equals(Files.readAllBytes(a), Files.readAllBytes(b));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
