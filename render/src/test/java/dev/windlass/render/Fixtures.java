package dev.windlass.render;

import dev.windlass.policy.source.MapSnapshot;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/** The real-world repos the render tests read, as snapshots, and the goldens the pinned tools printed for them. */
final class Fixtures {
    static final Path REAL_WORLD = Path.of("..", "test-fixtures", "real-world");
    /** The default access, and the chart repositories and registries the tests serve on loopback. */
    static final RenderAccess PRIVATE_HOSTS = new RenderAccess(RenderSandbox.Mode.REQUIRED, false, true);

    private Fixtures() {}

    /** Every file of a real-world folder, as a commit of its own. */
    static MapSnapshot repo(String folder) {
        Path root = REAL_WORLD.resolve(folder);
        Map<String, byte[]> files = new TreeMap<>();
        try (Stream<Path> walk = Files.walk(root)) {
            for (Path p : walk.filter(Files::isRegularFile).toList()) {
                files.put(root.relativize(p).toString().replace('\\', '/'), Files.readAllBytes(p));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        // A commit id of its own per folder: the renderer remembers what a commit's renders reach.
        return new MapSnapshot(commitId(folder), files);
    }

    private static String commitId(String folder) {
        try {
            return java.util.HexFormat.of().formatHex(java.security.MessageDigest.getInstance("SHA-1").digest(folder.getBytes(StandardCharsets.UTF_8)));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** What {@code scripts/render-goldens.sh} wrote: the tool's own output. */
    static String golden(String name) {
        try {
            return Files.readString(Path.of("src", "test", "resources", "golden", name + ".yaml"), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The pinned tools; a test needing them fails, naming the script, when they are not there. */
    static RenderTools tools() {
        RenderTools tools = RenderTools.fromEnvironment();
        String missing = RenderTools.missing(tools.kustomize());
        if (missing == null) missing = RenderTools.missing(tools.helm());
        if (missing != null) throw new IllegalStateException(missing);
        return tools;
    }
}
