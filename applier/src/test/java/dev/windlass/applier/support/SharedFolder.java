package dev.windlass.applier.support;

import static org.junit.jupiter.api.Assertions.fail;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Assumptions;

/**
 * Finds {@code shared/real-world} beside the checkout, looking upwards. Missing in CI ({@code CI=true}) is a
 * failure, never a silent skip; on a developer machine without it the test is aborted with the reason.
 */
public final class SharedFolder {

    private SharedFolder() {}

    public static Path realWorld() {
        Path dir = Path.of("").toAbsolutePath();
        for (Path p = dir; p != null; p = p.getParent()) {
            Path candidate = p.resolve("shared").resolve("real-world");
            if (Files.isDirectory(candidate)) return candidate;
        }
        String message = "shared/real-world not found beside the checkout (looked upwards from " + dir + ")";
        if ("true".equals(System.getenv("CI"))) fail(message);
        Assumptions.abort(message);
        return null;
    }
}
