package dev.weft.testsupport;

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.function.Predicate;

/** A child process's output copied to a log file, with a future for the first line that says it is ready. */
public final class ProcessOutput {
    private ProcessOutput() {}

    /**
     * Copies {@code p}'s output (start it with {@code redirectErrorStream(true)}) to {@code log} on a daemon thread; the
     * future completes with the first line {@code ready} accepts, or fails when the output ends before one.
     */
    public static CompletableFuture<String> follow(Process p, Path log, Predicate<String> ready) {
        CompletableFuture<String> line = new CompletableFuture<>();
        Thread reader = new Thread(
                () -> {
                    try (BufferedReader in = new BufferedReader(
                                    new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
                            BufferedWriter out = Files.newBufferedWriter(log)) {
                        for (String l; (l = in.readLine()) != null; ) {
                            out.write(l);
                            out.newLine();
                            out.flush();
                            if (!line.isDone() && ready.test(l)) line.complete(l);
                        }
                    } catch (IOException e) {
                        line.completeExceptionally(e);
                    }
                    line.completeExceptionally(
                            new IllegalStateException("the process's output ended before it was ready; see " + log));
                },
                "output of pid " + p.pid());
        reader.setDaemon(true);
        reader.start();
        return line;
    }
}
