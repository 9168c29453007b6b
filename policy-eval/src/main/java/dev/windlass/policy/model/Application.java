package dev.windlass.policy.model;

import java.util.List;
import java.util.Map;

/**
 * An application from {@code kind: Application} with the manifests it renders.
 *
 * @param revision    short content hash of the spec and every manifest: what "version" of the app is rolled out
 * @param diagnostics problems in the app or its manifests; an app with an error is {@linkplain #valid() invalid}
 *                    and gets no actions at all
 * @param rolloutPaused why its rollout is paused (annotation {@value #ANNOTATION_ROLLOUT_PAUSED}), or null; an
 *                    annotation, not spec, so pausing does not change the revision being rolled out
 */
public record Application(String name, Map<String, String> labels, String sourcePath, String namespace,
                          Placement placement, SyncPolicy syncPolicy, List<String> dependsOn, boolean suspend,
                          List<Manifest> manifests, String revision, List<Diagnostic> diagnostics,
                          SourceLocation location, String rolloutPaused) {

    public static final String ANNOTATION_ROLLOUT_PAUSED = "windlass.dev/rollout-paused";

    public Application {
        labels = Map.copyOf(labels);
        dependsOn = List.copyOf(dependsOn);
        manifests = List.copyOf(manifests);
        diagnostics = List.copyOf(diagnostics);
    }

    public boolean valid() { return diagnostics.stream().noneMatch(Diagnostic::isError); }

    /** Which clusters get the app: selector union names, then at most {@code maxClusters} (0 = no limit). */
    public record Placement(LabelSelector clusterSelector, List<String> clusterNames, int maxClusters) {
        public Placement { clusterNames = List.copyOf(clusterNames); }
    }

    public enum ApplyStrategy { ServerSide, ClientSide }

    public record SyncPolicy(boolean prune, boolean selfHeal, ApplyStrategy applyStrategy, boolean force) {
        public static final SyncPolicy DEFAULT = new SyncPolicy(true, true, ApplyStrategy.ServerSide, false);
    }
}
