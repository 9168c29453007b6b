package dev.windlass.applier.support;

import static org.junit.jupiter.api.Assertions.fail;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Finds the project's {@code test-fixtures/real-world}, looking upwards from the working directory (a module's
 * directory under Maven). The fixtures are committed with the project, so a missing folder is a broken checkout
 * and fails the test, never skips it. The engine's tests have the same helper.
 */
public final class RealWorldFixtures {
    private RealWorldFixtures() {}

    public static Path folder() {
        Path dir = Path.of("").toAbsolutePath();
        for (Path p = dir; p != null; p = p.getParent()) {
            Path candidate = p.resolve("test-fixtures").resolve("real-world");
            if (Files.isDirectory(candidate)) return candidate;
        }
        return fail("test-fixtures/real-world not found in " + dir + " or any folder above it; it is part of the project, so restore it from Git");
    }
}
