package dev.windlass.policy.model;

import java.util.List;
import java.util.Map;

/**
 * An application from {@code kind: Application} with the manifests it renders.
 *
 * @param revision    short content hash of the spec and every manifest: what "version" of the app is rolled out
 * @param diagnostics problems in the app or its manifests; an app with an error is {@linkplain #valid() invalid}
 *                    and gets no actions at all
 * @param annotations its metadata.annotations: operator notes such as {@value #ANNOTATION_ROLLOUT_PAUSED}, which are
 *                    not part of the revision (pausing a rollout must not start a new one)
 */
public record Application(String name, Map<String, String> labels, String sourcePath, String namespace,
                          Placement placement, SyncPolicy syncPolicy, List<String> dependsOn, boolean suspend,
                          List<Manifest> manifests, String revision, List<Diagnostic> diagnostics,
                          SourceLocation location, Map<String, String> annotations) {

    public static final String ANNOTATION_ROLLOUT_PAUSED = "windlass.dev/rollout-paused";
    public static final String ANNOTATION_SUSPEND_REASON = "windlass.dev/suspend-reason";

    /** Why its rollout is paused, or null when it is not. */
    public String rolloutPaused() { return annotations.get(ANNOTATION_ROLLOUT_PAUSED); }

    public Application {
        annotations = annotations == null ? Map.of() : Map.copyOf(annotations);
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

    /** @param ignoreDifferences fields other controllers own, from {@code spec.ignoreDifferences} */
    public record SyncPolicy(boolean prune, boolean selfHeal, ApplyStrategy applyStrategy, boolean force,
                             List<IgnoreDifferences> ignoreDifferences) {
        public static final SyncPolicy DEFAULT = new SyncPolicy(true, true, ApplyStrategy.ServerSide, false, List.of());

        public SyncPolicy {
            ignoreDifferences = List.copyOf(ignoreDifferences);
        }

        public SyncPolicy(boolean prune, boolean selfHeal, ApplyStrategy applyStrategy, boolean force) {
            this(prune, selfHeal, applyStrategy, force, List.of());
        }

        public SyncPolicy withIgnoreDifferences(List<IgnoreDifferences> rules) {
            return new SyncPolicy(prune, selfHeal, applyStrategy, force, rules);
        }
    }
}
