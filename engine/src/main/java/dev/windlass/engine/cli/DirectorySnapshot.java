package dev.windlass.engine.cli;

import dev.windlass.policy.source.MapSnapshot;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;

/**
 * A config repo folder on disk read as a snapshot, for {@code windlass validate} (no Git needed). Symbolic links are
 * listed apart and never followed, as the engine lists them from Git: the same repo gives the same errors either way.
 */
final class DirectorySnapshot {
    private DirectorySnapshot() {}

    static MapSnapshot of(Path dir) {
        Map<String, byte[]> files = new TreeMap<>();
        Set<String> symlinks = new TreeSet<>();
        try {
            Path root = dir.toRealPath();  // the folder named on the command line may itself be a link
            try (Stream<Path> walk = Files.walk(root)) {
                for (Path p : walk.toList()) {
                    String rel = root.relativize(p).toString().replace('\\', '/');
                    if (rel.equals(".git") || rel.startsWith(".git/")) continue;
                    if (Files.isSymbolicLink(p)) symlinks.add(rel);
                    else if (Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS)) files.put(rel, Files.readAllBytes(p));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return new MapSnapshot("working-tree", files, symlinks);
    }
}
