package dev.windlass.policy;

import dev.windlass.policy.source.MapSnapshot;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/** Test repos: a folder on disk or a few inline files, as a snapshot. */
public final class RepoFiles {
    private RepoFiles() {}

    public static MapSnapshot folder(Path root) {
        Map<String, byte[]> files = new TreeMap<>();
        try (Stream<Path> walk = Files.walk(root)) {
            for (Path p : walk.filter(Files::isRegularFile).toList()) {
                files.put(root.relativize(p).toString().replace('\\', '/'), Files.readAllBytes(p));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return new MapSnapshot("0000000000000000000000000000000000000001", files);
    }

    public static MapSnapshot examples() {
        Path p = Path.of("..", "examples-repo");
        return folder(p);
    }

    public static MapSnapshot inline(String... pathThenContent) {
        Map<String, String> files = new TreeMap<>();
        for (int i = 0; i < pathThenContent.length; i += 2) files.put(pathThenContent[i], pathThenContent[i + 1]);
        return MapSnapshot.ofStrings("0000000000000000000000000000000000000002", files);
    }
}
