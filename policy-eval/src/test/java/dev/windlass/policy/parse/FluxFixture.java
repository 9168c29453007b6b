package dev.windlass.policy.parse;

import dev.windlass.policy.RepoFiles;
import dev.windlass.policy.model.DesiredState;
import dev.windlass.policy.model.Diagnostic;
import dev.windlass.policy.source.MapSnapshot;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** Flux's own example repo (test-fixtures), as published, with the Windlass files a team adds to adopt it. */
final class FluxFixture {
    static final Path ROOT = Path.of("..", "test-fixtures", "real-world", "flux2-kustomize-helm-example");

    /** The one change a team makes: which clusters each folder of clusters/ is for, and the clusters themselves. */
    static final String WINDLASS = """
            apiVersion: windlass.dev/v1alpha1
            kind: Settings
            spec:
              flux:
                clusters:
                  - path: clusters/{cluster}
            """;
    static final String CLUSTERS = """
            apiVersion: windlass.dev/v1alpha1
            kind: Cluster
            metadata: {name: staging, labels: {env: staging}}
            spec: {connection: {sandbox: {nodes: 1}}}
            ---
            apiVersion: windlass.dev/v1alpha1
            kind: Cluster
            metadata: {name: production, labels: {env: production}}
            spec: {connection: {sandbox: {nodes: 1}}}
            """;

    private FluxFixture() {}

    /** The fixture's files, with {@code extra} (path, text) written over or added. */
    static MapSnapshot repo(Map<String, String> extra) {
        MapSnapshot fixture = RepoFiles.folder(ROOT);
        Map<String, byte[]> files = new TreeMap<>();
        fixture.files().keySet().forEach(p -> files.put(p, fixture.read(p)));
        extra.forEach((p, text) -> files.put(p, text.getBytes(StandardCharsets.UTF_8)));
        return new MapSnapshot("0000000000000000000000000000000000000003", files);
    }

    /** The fixture adopted as a team would: windlass.yaml and the two clusters added, nothing of Flux's changed. */
    static MapSnapshot adopted() { return repo(Map.of("windlass.yaml", WINDLASS, "windlass/clusters.yaml", CLUSTERS)); }

    /** A file of the fixture, as published. */
    static String read(String path) {
        try {
            return java.nio.file.Files.readString(ROOT.resolve(path));
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    static List<String> errors(DesiredState s) { return s.diagnostics().stream().filter(Diagnostic::isError).map(Object::toString).toList(); }

    static List<String> warnings(DesiredState s) { return s.diagnostics().stream().filter(d -> !d.isError()).map(Object::toString).toList(); }
}
