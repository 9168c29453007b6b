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
 * @param render      how its objects are rendered (Kustomize or Helm, and per-cluster variants); null when its source is
 *                    plain YAML, read as it is
 * @param variants    for a rendered application, what each cluster gets, by cluster name (empty until rendered, and
 *                    for plain applications, whose {@code manifests} every cluster gets)
 * @param decryption  the Secret whose keys decrypt its SOPS-encrypted manifests ({@code spec.decryption}); null: the
 *                    engine's own keys
 */
public record Application(String name, Map<String, String> labels, String sourcePath, String namespace,
                          Placement placement, SyncPolicy syncPolicy, List<String> dependsOn, boolean suspend,
                          List<Manifest> manifests, String revision, List<Diagnostic> diagnostics,
                          SourceLocation location, Map<String, String> annotations, RenderSpec render,
                          Map<String, Variant> variants, Decryption decryption) {

    /**
     * {@code spec.decryption}: the Secret, in the engine's own namespace, whose keys ({@code *.agekey}, {@code *.asc})
     * decrypt the application's SOPS-encrypted manifests.
     *
     * @param at where its name is written
     */
    public record Decryption(String secretName, SourceLocation at) {}

    /** An application without its own decryption Secret. */
    public Application(String name, Map<String, String> labels, String sourcePath, String namespace, Placement placement,
                       SyncPolicy syncPolicy, List<String> dependsOn, boolean suspend, List<Manifest> manifests, String revision,
                       List<Diagnostic> diagnostics, SourceLocation location, Map<String, String> annotations, RenderSpec render,
                       Map<String, Variant> variants) {
        this(name, labels, sourcePath, namespace, placement, syncPolicy, dependsOn, suspend, manifests, revision, diagnostics, location,
                annotations, render, variants, null);
    }

    public static final String ANNOTATION_ROLLOUT_PAUSED = "windlass.dev/rollout-paused";
    public static final String ANNOTATION_SUSPEND_REASON = "windlass.dev/suspend-reason";

    /** Why its rollout is paused, or null when it is not. */
    public String rolloutPaused() { return annotations.get(ANNOTATION_ROLLOUT_PAUSED); }

    /** A plain application: its manifests are what every cluster gets. */
    public Application(String name, Map<String, String> labels, String sourcePath, String namespace, Placement placement,
                       SyncPolicy syncPolicy, List<String> dependsOn, boolean suspend, List<Manifest> manifests, String revision,
                       List<Diagnostic> diagnostics, SourceLocation location, Map<String, String> annotations) {
        this(name, labels, sourcePath, namespace, placement, syncPolicy, dependsOn, suspend, manifests, revision, diagnostics,
                location, annotations, null, Map.of());
    }

    public Application {
        variants = variants == null ? Map.of() : java.util.Collections.unmodifiableSortedMap(new java.util.TreeMap<>(variants));
        annotations = annotations == null ? Map.of() : Map.copyOf(annotations);
        labels = Map.copyOf(labels);
        dependsOn = List.copyOf(dependsOn);
        manifests = List.copyOf(manifests);
        diagnostics = List.copyOf(diagnostics);
    }

    public boolean valid() { return diagnostics.stream().noneMatch(Diagnostic::isError); }

    /**
     * The application as {@code cluster} gets it: for a rendered application, with that cluster's objects as its
     * manifests and only that cluster's variant; a plain application is the same everywhere.
     */
    public Application on(String cluster) {
        if (render == null) return this;
        Variant v = variants.get(cluster);
        List<Manifest> objects = v == null ? List.of() : v.manifests();
        return new Application(name, labels, sourcePath, namespace, placement, syncPolicy, dependsOn, suspend, objects, revision,
                diagnostics, location, annotations, render, v == null ? Map.of() : Map.of(cluster, v), decryption);
    }

    /** The variant {@code cluster} gets, or "" for a plain application. */
    public String variantOn(String cluster) {
        Variant v = variants.get(cluster);
        return v == null ? "" : v.name();
    }

    /**
     * The hash of what is rendered for {@code cluster}: the application's revision there, equal from one revision to the
     * next when that cluster's objects did not change. "" for a plain application, and before it is rendered.
     */
    public String renderedOn(String cluster) {
        Variant v = variants.get(cluster);
        return v == null ? "" : v.rendered();
    }

    /** Every object it declares on any cluster: its manifests, or every variant's. */
    public List<Manifest> allManifests() {
        if (variants.isEmpty()) return manifests;
        List<Manifest> all = new java.util.ArrayList<>();
        variants.values().forEach(v -> all.addAll(v.manifests()));
        return all;
    }

    /** The same application with its manifests replaced. */
    public Application withManifests(List<Manifest> replaced) {
        return new Application(name, labels, sourcePath, namespace, placement, syncPolicy, dependsOn, suspend, replaced, revision,
                diagnostics, location, annotations, render, variants, decryption);
    }

    /**
     * The same application with {@code change} made to its objects and to those of each variant; {@code mark} is added to
     * its revision and to each variant's render, so that a plan made before the change is not reused.
     */
    public Application withEachManifest(java.util.function.UnaryOperator<Manifest> change, String mark) {
        Map<String, Variant> changed = new java.util.LinkedHashMap<>();
        variants.forEach((cluster, v) -> changed.put(cluster, new Variant(v.name(), v.manifests().stream().map(change).toList(),
                v.rendered() + "+" + mark)));
        return new Application(name, labels, sourcePath, namespace, placement, syncPolicy, dependsOn, suspend,
                manifests.stream().map(change).toList(), revision + "+" + mark, diagnostics, location, annotations, render, changed, decryption);
    }

    /** The same application placed by another rule. */
    public Application withPlacement(Placement replaced) {
        return new Application(name, labels, sourcePath, namespace, replaced, syncPolicy, dependsOn, suspend, manifests, revision,
                diagnostics, location, annotations, render, variants, decryption);
    }

    /** The same application with other dependencies. */
    public Application withDependsOn(List<String> replaced) {
        return new Application(name, labels, sourcePath, namespace, placement, syncPolicy, replaced, suspend, manifests, revision,
                diagnostics, location, annotations, render, variants, decryption);
    }

    /** The same application with other diagnostics. */
    public Application withDiagnostics(List<Diagnostic> replaced) {
        return new Application(name, labels, sourcePath, namespace, placement, syncPolicy, dependsOn, suspend, manifests, revision,
                replaced, location, annotations, render, variants, decryption);
    }

    /** The same application once rendered: what each cluster gets, its revision over all of it, and what went wrong. */
    public Application rendered(Map<String, Variant> byCluster, String newRevision, List<Diagnostic> allDiagnostics) {
        return new Application(name, labels, sourcePath, namespace, placement, syncPolicy, dependsOn, suspend, List.of(), newRevision,
                allDiagnostics, location, annotations, render, byCluster, decryption);
    }

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
