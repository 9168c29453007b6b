package dev.windlass.engine.cli;

import dev.windlass.policy.source.MapSnapshot;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/** A config repo folder on disk read as a snapshot, for {@code windlass validate} (no Git needed). */
final class DirectorySnapshot {
    private DirectorySnapshot() {}

    static MapSnapshot of(Path root) {
        Map<String, byte[]> files = new TreeMap<>();
        try (Stream<Path> walk = Files.walk(root)) {
            for (Path p : walk.filter(Files::isRegularFile).toList()) {
                String rel = root.relativize(p).toString().replace('\\', '/');
                if (rel.startsWith(".git/")) continue;
                files.put(rel, Files.readAllBytes(p));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return new MapSnapshot("working-tree", files);
    }
}
