package dev.windlass.policy.parse;

import dev.windlass.policy.text.Excerpt;
import dev.windlass.policy.model.Application;
import dev.windlass.policy.model.DesiredState;
import dev.windlass.policy.model.Diagnostic;
import dev.windlass.policy.model.Settings;
import dev.windlass.policy.model.SourceLocation;
import dev.windlass.policy.source.Snapshot;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Reads a whole commit into a {@link DesiredState}. Kinds are found by {@code kind}, not by folder.
 * Problems never stop the parse: each lands as a diagnostic on the application it affects (which then
 * gets no actions) or on the repo as a whole.
 */
public final class RepoParser {
    public static final String API_VERSION = "windlass.dev/v1alpha1";
    /** Kinds of later versions, refused with an error rather than ignored (none at the moment). */
    static final Set<String> LATER_KINDS = Set.of();

    private RepoParser() {}

    public static DesiredState parse(Snapshot snapshot) {
        return parse(snapshot, new ParseCache());
    }

    public static DesiredState parse(Snapshot snapshot, ParseCache cache) { return parse(snapshot, cache, Owners.NONE); }

    /** What {@code snapshot} declares, an object two applications declare kept by the one {@code owners} says. */
    public static DesiredState parse(Snapshot snapshot, ParseCache cache, Owners owners) { return parse(snapshot, cache, owners, GoTemplates.NONE); }

    /**
     * What {@code snapshot} declares, an object two applications declare kept by the one {@code owners} says, and an
     * Argo CD ApplicationSet with goTemplate rendered by {@code goTemplates}.
     */
    public static DesiredState parse(Snapshot snapshot, ParseCache cache, Owners owners, GoTemplates goTemplates) {
        cache.beginPass(snapshot.files());
        List<YamlFile> files = new ArrayList<>();
        Set<String> charts = chartFolders(snapshot);
        snapshot.files().forEach((path, id) -> {
            if (isYaml(path) && !inChart(path, charts)) files.add(cache.get(path, id, () -> snapshot.read(path)));
        });
        for (String link : snapshot.symlinks()) {
            if (!hidden(link)) files.add(symlink(link));
        }
        List<Diagnostic> all = new ArrayList<>();
        Set<String> broken = new HashSet<>();
        Settings settings = Settings.DEFAULT;
        YamlDoc settingsDoc = null;
        Clusters clusters = new Clusters();
        List<Declared> apps = new ArrayList<>();
        List<YamlDoc> plainDocs = new ArrayList<>();
        Rollouts rollouts = new Rollouts();
        FailoverPolicies failovers = new FailoverPolicies();
        RemediationPolicies remediations = new RemediationPolicies();
        Freezes freezes = new Freezes();
        FluxImports flux = new FluxImports();
        ArgoImports argo = new ArgoImports();
        Alerts alerts = new Alerts();
        for (YamlFile f : files) {
            if (f.broken()) broken.add(f.path());
            all.addAll(f.diagnostics());
            for (YamlDoc doc : f.docs()) {
                if (!doc.isWindlass()) {
                    if (FluxImports.claims(doc)) flux.add(doc);
                    else if (ArgoImports.claims(doc)) argo.add(doc);
                    else if (!KustomizeConfigs.is(doc)) plainDocs.add(doc);
                    continue;
                }
                List<Diagnostic> found = new ArrayList<>();
                if (!doc.apiVersion().equals(API_VERSION)) {
                    found.add(Diagnostic.error(doc.location(), "apiVersion " + Excerpt.quoted(doc.apiVersion()) + " is not supported; use " + API_VERSION));
                } else switch (doc.kind()) {
                    case "Settings" -> {
                        if (settingsDoc != null) found.add(Diagnostic.error(doc.location(), "a second Settings object; the first is at " + settingsDoc.location() + ". Keep one"));
                        else {
                            settingsDoc = doc;
                            settings = SettingsReader.read(doc, found);
                        }
                    }
                    case "Cluster" -> clusters.read(doc, found, broken);
                    case "RolloutPolicy" -> rollouts.read(doc, found);
                    case "FailoverPolicy" -> failovers.read(doc, found);
                    case "RemediationPolicy" -> {
                        remediations.read(doc, found);
                        if (found.stream().anyMatch(Diagnostic::isError)) broken.add(doc.path());
                    }
                    case "Freeze" -> freezes.read(doc, found);
                    case "Provider" -> alerts.readProvider(doc, found);
                    case "Alert" -> alerts.readAlert(doc, found);
                    case "Application" -> {
                        AppDeclaration a = cache.application(doc, found);
                        if (a == null) broken.add(doc.path());
                        else apps.add(new Declared(a, doc, new ArrayList<>(found)));
                    }
                    default -> found.add(Diagnostic.error(doc.location(), LATER_KINDS.contains(doc.kind())
                            ? "kind " + doc.kind() + " is not supported by this version of Windlass yet; remove it until it is, so nothing relies on a policy that is not enforced"
                            : "unknown kind " + Excerpt.quoted(doc.kind()) + " for " + API_VERSION + "; known kinds: Settings, Cluster, Application, RolloutPolicy, FailoverPolicy, RemediationPolicy, Freeze, Provider, Alert"));
                }
                all.addAll(found);
            }
        }
        apps.addAll(flux.read(settings.flux(), broken, all));
        apps.addAll(argo.read(new ArgoApplicationReader.Context(settings.argocd(), clusters.clusters(), snapshot.files(), snapshot::read, goTemplates), broken, all));
        all.addAll(clusters.check(broken));
        all.addAll(remediations.check(clusters.clusters(), broken));
        var built = new AppAssembly(snapshot, files, clusters.clusters(), plainDocs, cache).assemble(apps);
        all.addAll(built.extraDiagnostics());
        var held = clusters.hold(built.apps());
        all.addAll(held.diagnostics());
        var matched = rollouts.match(held.apps(), clusters.clusters(), broken);
        all.addAll(matched.diagnostics());
        var moved = failovers.match(matched.apps());
        all.addAll(moved.diagnostics());
        var secretFree = SecretReadingRules.check(moved.apps(), moved.failoverOf(), failovers.policies());
        all.addAll(secretFree.diagnostics());
        var frozen = freezes.match(secretFree.apps(), clusters.clusters());
        all.addAll(frozen.diagnostics());
        Alerts.Checked told = alerts.check();
        all.addAll(told.diagnostics());
        all.addAll(alerts.checkRevertRefs(rollouts.policies().values()));
        all.sort(null);
        return SharedObjects.check(new DesiredState(snapshot.commit(), settings, clusters.clusters(), frozen.apps(), broken, all,
                rollouts.policies(), matched.rolloutOf(), freezes.freezes(), snapshot.author(), failovers.policies(), moved.failoverOf(),
                remediations.policies(), told.alerting()), owners);
    }

    /** Every folder holding a Helm chart (a Chart.yaml): its templates are no YAML until Helm renders them. */
    static Set<String> chartFolders(Snapshot snapshot) {
        Set<String> charts = new HashSet<>();
        for (String path : snapshot.files().keySet()) {
            if (path.equals("Chart.yaml")) charts.add("");
            else if (path.endsWith("/Chart.yaml")) charts.add(path.substring(0, path.length() - "/Chart.yaml".length()));
        }
        return charts;
    }

    /** Whether {@code path} is a file of a chart: never read as manifests or Windlass objects, only by Helm. */
    static boolean inChart(String path, Set<String> charts) {
        if (charts.isEmpty()) return false;
        if (charts.contains("")) return true;
        for (int slash = path.indexOf('/'); slash > 0; slash = path.indexOf('/', slash + 1)) {
            if (charts.contains(path.substring(0, slash))) return true;
        }
        return false;
    }

    static boolean isYaml(String path) {
        return (path.endsWith(".yaml") || path.endsWith(".yml")) && !hidden(path);
    }

    /** In a file or folder whose name starts with a dot, which Windlass leaves alone. */
    static boolean hidden(String path) {
        for (String part : path.split("/")) if (part.startsWith(".")) return true;
        return false;
    }

    /**
     * A symbolic link, as a file that cannot be read: an error, so that the application it is in is held as it was, and
     * what it points to, in the repo or outside, is never read.
     */
    static YamlFile symlink(String path) {
        String name = path.substring(path.lastIndexOf('/') + 1);
        return new YamlFile(path, "", List.of(), List.of(Diagnostic.error(SourceLocation.file(path),
                name + " is a symbolic link; Windlass reads no symbolic links, so replace it with the file itself")));
    }

    /** An application declaration with the diagnostics found in its own document. */
    record Declared(AppDeclaration decl, YamlDoc doc, List<Diagnostic> diagnostics) {}

    /** Applications ready for the model, and diagnostics that belong to no single application. */
    record Assembled(java.util.SortedMap<String, Application> apps, List<Diagnostic> extraDiagnostics) {}
}
