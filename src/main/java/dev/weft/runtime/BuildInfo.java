package dev.weft.runtime;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;

/** Version and commit of this build, from the resources the Maven build writes. */
public record BuildInfo(String version, String commitHash) {
    public static BuildInfo load() {
        Properties build = props("weft-build.properties");
        Properties git = props("git.properties");
        String version = build.getProperty("version", "dev");
        if (version.startsWith("$")) version = "dev";
        String commit = git.getProperty("git.commit.id", "unknown");
        return new BuildInfo(version.startsWith("v") || version.equals("dev") ? version : "v" + version, commit);
    }

    private static Properties props(String resource) {
        Properties p = new Properties();
        try (InputStream in = BuildInfo.class.getClassLoader().getResourceAsStream(resource)) {
            if (in != null) p.load(in);
        } catch (IOException ignored) {
            // absent build metadata is reported as dev/unknown
        }
        return p;
    }
}
