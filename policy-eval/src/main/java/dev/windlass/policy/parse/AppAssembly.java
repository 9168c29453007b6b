package dev.windlass.policy.parse;

import dev.windlass.policy.text.Excerpt;
import dev.windlass.policy.diff.ContentHash;
import dev.windlass.policy.model.Application;
import dev.windlass.policy.model.Cluster;
import dev.windlass.policy.model.Diagnostic;
import dev.windlass.policy.model.Manifest;
import dev.windlass.policy.model.ObjectRef;
import dev.windlass.policy.model.RenderSpec;
import dev.windlass.policy.source.KustomizeReach;
import dev.windlass.policy.source.Reach;
import dev.windlass.policy.source.Snapshot;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Set;
import java.util.TreeMap;

/**
 * Joins each application declaration with the manifests under its source path, checks what spans
 * files (duplicate names, unknown clusters and dependencies, cycles), and computes its revision.
 */
final class AppAssembly {
    private final Snapshot snapshot;
    private final NavigableMap<String, YamlFile> files = new TreeMap<>();
    private final Map<String, Cluster> clusters;
    private final List<YamlDoc> plainDocs;
    private final Scope scope;
    private final ParseCache cache;
    /** The repo's chart folders, found once: asked per application, a scan of every file each time grew as apps x files. */
    private final Set<String> charts;

    AppAssembly(Snapshot snapshot, List<YamlFile> files, Map<String, Cluster> clusters, List<YamlDoc> plainDocs, ParseCache cache) {
        this.snapshot = snapshot;
        this.cache = cache;
        for (YamlFile f : files) this.files.put(f.path(), f);
        this.clusters = clusters;
        this.plainDocs = plainDocs;
        this.scope = scopeOf(plainDocs, cache);
        this.charts = RepoParser.chartFolders(snapshot);
    }

    RepoParser.Assembled assemble(List<RepoParser.Declared> declared) {
        List<Diagnostic> extra = new ArrayList<>();
        SameNames names = new SameNames("Application");
        Map<String, RepoParser.Declared> byName = new TreeMap<>();
        for (RepoParser.Declared d : declared) {
            if (d.decl().rendering().flux() != null || d.decl().rendering().argo() != null) names.add(d.decl().name(), d.doc());
            else names.add(d.doc());
            byName.putIfAbsent(d.decl().name(), d);
        }
        // The first of two by one name stays, invalid, so that neither is applied and nothing it applied is pruned.
        for (String name : names.duplicatedNames()) {
            byName.get(name).diagnostics().addAll(names.errors(name));
            extra.addAll(names.errors(name));
        }
        Set<String> covered = new HashSet<>();
        TreeMap<String, Application> apps = new TreeMap<>();
        Map<String, List<Diagnostic>> nested = NestedSources.check(byName.values());
        for (RepoParser.Declared d : byName.values()) {
            List<Diagnostic> own = new ArrayList<>(d.diagnostics());
            List<Diagnostic> added = new ArrayList<>(nested.getOrDefault(d.decl().name(), List.of()));
            RenderSpec render = renderSpec(d.decl(), added, covered);
            List<Manifest> manifests = render != null ? List.of() : manifests(d.decl(), own, added, covered);
            checkReferences(d.decl(), byName, added);
            own.addAll(added);
            extra.addAll(added);
            own.sort(null);
            apps.put(d.decl().name(), build(d, manifests, own, render));
        }
        cycles(byName, apps, extra);
        for (YamlDoc doc : plainDocs) {
            if (covered.contains(doc.path())) continue;
            if (Set.of("Settings", "Cluster", "Application", "RolloutPolicy", "RemediationPolicy").contains(doc.kind()) || RepoParser.LATER_KINDS.contains(doc.kind())) {
                extra.add(Diagnostic.error(doc.location(), "kind " + doc.kind() + " needs apiVersion: " + RepoParser.API_VERSION));
            } else if (!doc.kind().isEmpty() && doc.value().containsKey("apiVersion")) {
                extra.add(Diagnostic.warning(doc.location(), doc.kind() + " is not under any Application's source path, so it is not applied"));
            }
        }
        return new RepoParser.Assembled(apps, extra);
    }

    /**
     * How the application is rendered, or null when its source is plain YAML: a Helm chart when it names one, else a
     * Kustomize build when its source folder holds a kustomization. Files the render reads are not manifests of their
     * own; what is missing is said here, what the tool finds wrong when it runs.
     */
    private RenderSpec renderSpec(AppDeclaration a, List<Diagnostic> added, Set<String> covered) {
        AppDeclaration.Rendering r = a.rendering();
        if (r.flux() != null) return fluxBuild(a, r, added, covered);
        if (r.argo() != null) return argoBuild(a, r, added, covered);
        String kustomization = KustomizeReach.kustomization(snapshot.files(), a.sourcePath());
        if (r.helm() == null && kustomization == null) {
            if (!r.variants().isEmpty()) {
                added.add(Diagnostic.error(r.variants().get(0).at(), "Application " + a.name() + " has spec.variants, but its source is"
                        + " plain YAML: variants need a Kustomize folder (a kustomization.yaml in spec.source.path) or spec.source.helm"));
            }
            return null;
        }
        List<String> valuesFiles = new ArrayList<>();
        if (r.helm() != null) {
            RenderSpec.Helm h = r.helm();
            if (!h.chartPath().isEmpty()) {
                if (!snapshot.files().containsKey(h.chartPath() + "/Chart.yaml")) {
                    added.add(Diagnostic.error(h.at(), "spec.source.helm.chart " + Excerpt.quoted(h.chartPath()
                           ) + " holds no Chart.yaml; name the folder of a chart in the repo, or give repoURL and version"));
                }
                covered.addAll(Reach.under(snapshot.files(), h.chartPath()).keySet());
            }
            valuesFiles.addAll(h.valuesFiles());
            for (RenderSpec.VariantSpec v : r.variants()) {
                if (v.path() != null) added.add(Diagnostic.error(v.at(), "variant " + Excerpt.quoted(v.name()
                       ) + ": path picks a Kustomize overlay, but this application renders a Helm chart; give values or valuesFiles"));
                valuesFiles.addAll(v.valuesFiles());
            }
        } else {
            covered.addAll(KustomizeReach.of(snapshot.files(), snapshot::read, a.sourcePath(), true).files().keySet());
            for (RenderSpec.VariantSpec v : r.variants()) {
                if (!v.values().isEmpty() || !v.valuesFiles().isEmpty()) added.add(Diagnostic.error(v.at(), "variant " + Excerpt.quoted(v.name()
                       ) + ": values are for Helm charts, but this application is a Kustomize build; give path: an overlay folder"));
                if (v.path() == null) continue;
                if (KustomizeReach.kustomization(snapshot.files(), v.path()) == null) {
                    added.add(Diagnostic.error(v.at(), "variant " + Excerpt.quoted(v.name()) + ": path " + Excerpt.quoted(v.path()
                           ) + " holds no kustomization.yaml; name an overlay folder of the repo"));
                } else {
                    covered.addAll(KustomizeReach.of(snapshot.files(), snapshot::read, v.path(), true).files().keySet());
                }
            }
        }
        for (String f : valuesFiles) {
            if (!snapshot.files().containsKey(f)) {
                added.add(Diagnostic.error(r.at(), "values file " + Excerpt.quoted(f) + " does not exist in the repo; give its path from the repo's root"));
            }
            covered.add(f);
        }
        return new RenderSpec(r.helm() == null ? a.sourcePath() : null, r.helm(), r.variants(), r.allowEmpty(), r.at());
    }

    /**
     * How an application read from a Flux Kustomization is built: always by Kustomize, from the kustomization file Flux
     * would write in its path, with the variables its postBuild substitutes.
     */
    private RenderSpec fluxBuild(AppDeclaration a, AppDeclaration.Rendering r, List<Diagnostic> added, Set<String> covered) {
        FluxRead flux = r.flux();
        Map<String, String> files = new TreeMap<>();
        var file = FluxKustomizationFile.of(snapshot, a.sourcePath(), flux, a.sourcePathAt(), added);
        if (file != null) {
            if (!file.getValue().isEmpty()) files.put(file.getKey(), file.getValue());
            Snapshot built = dev.windlass.policy.source.WithFiles.of(snapshot, files);
            var reach = KustomizeReach.of(built.files(), built::read, a.sourcePath(), true);
            covered.addAll(reach.files().keySet());
        }
        Map<String, String> vars = FluxVariables.of(flux, plainDocs, added);
        return new RenderSpec(a.sourcePath(), null, List.of(), true, r.at(), new dev.windlass.policy.model.FluxBuild(files, vars, flux.origin(), false,
                dev.windlass.policy.model.FluxBuild.From.FLUX, flux.health(), null));
    }

    /**
     * How an application read from an Argo CD Application is rendered, or null when its source is a plain directory: a
     * chart with its values files and then its inline values, as Argo CD passes them to Helm; or a Kustomize build of the
     * path, with what its {@code kustomize} block writes into the kustomization.
     */
    private RenderSpec argoBuild(AppDeclaration a, AppDeclaration.Rendering r, List<Diagnostic> added, Set<String> covered) {
        ArgoRead argo = r.argo();
        var from = dev.windlass.policy.model.FluxBuild.From.ARGOCD;
        if (r.helm() != null) {
            Map<String, String> files = new TreeMap<>();
            RenderSpec.Helm h = r.helm();
            // The inline values are a file of their own when values files come before them, as Argo CD passes them.
            boolean ownFile = h.valuesFiles().contains(ArgoApplicationReader.valuesFile(a.name()));
            if (!argo.helmValues().isEmpty() && ownFile) files.put(ArgoApplicationReader.valuesFile(a.name()), argo.helmValues());
            if (!h.chartPath().isEmpty()) {
                covered.addAll(Reach.under(snapshot.files(), h.chartPath()).keySet());
            } else if (!argo.helmValues().isEmpty() && !ownFile) {
                h = new RenderSpec.Helm(h.chartPath(), h.repoURL(), h.chart(), h.version(), h.releaseName(), argo.helmValues(), h.valuesFiles(), h.skipCrds(), h.at());
            }
            covered.addAll(h.valuesFiles());
            return new RenderSpec(null, h, List.of(), r.allowEmpty(), r.at(),
                    new dev.windlass.policy.model.FluxBuild(files, Map.of(), argo.origin(), false, from));
        }
        if (KustomizeReach.kustomization(snapshot.files(), a.sourcePath()) == null) return null;
        Map<String, String> files = new TreeMap<>();
        ArgoRead.Kustomize k = argo.kustomize();
        if (k != null) {
            FluxRead edits = new FluxRead("", "", k.namespace(), k.namePrefix(), k.nameSuffix(), List.of(), k.images(), List.of(), Map.of(),
                    List.of(), argo.origin());
            var file = FluxKustomizationFile.of(snapshot, a.sourcePath(), edits, k.commonLabels(), k.commonAnnotations(), a.sourcePathAt(), added);
            if (file != null && !file.getValue().isEmpty()) files.put(file.getKey(), file.getValue());
        }
        Snapshot built = dev.windlass.policy.source.WithFiles.of(snapshot, files);
        covered.addAll(KustomizeReach.of(built.files(), built::read, a.sourcePath(), true).files().keySet());
        return new RenderSpec(a.sourcePath(), null, List.of(), r.allowEmpty(), r.at(),
                new dev.windlass.policy.model.FluxBuild(files, Map.of(), argo.origin(), false, from));
    }

    private List<Manifest> manifests(AppDeclaration a, List<Diagnostic> own, List<Diagnostic> added, Set<String> covered) {
        String root = a.sourcePath();
        boolean exists = root.isEmpty() && a.rendering().argo() != null || snapshot.files().containsKey(root)
                || !snapshot.files().subMap(root + "/", root + "/\uffff").isEmpty();
        if (!exists) {
            added.add(Diagnostic.error(a.sourcePathAt(), "source path " + Excerpt.quoted(root) + " does not exist in the repo; create it or set spec.source.path"));
            return List.of();
        }
        Set<String> charts = this.charts;
        // An Argo CD directory that does not recurse reads none of its folders' charts.
        if (a.rendering().argo() != null && !a.rendering().argo().directory().recurse()) charts = Set.of();
        for (String chart : charts) {
            if (chart.equals(root) || chart.startsWith(root + "/") || root.isEmpty()) {
                added.add(Diagnostic.error(a.sourcePathAt(), "source path " + Excerpt.quoted(root) + " holds a Helm chart ("
                        + (chart.isEmpty() ? "" : chart + "/") + "Chart.yaml), which is rendered, not read: set spec.source.helm.chart: "
                        + (chart.isEmpty() ? "." : chart)));
                return List.of();
            }
        }
        Map<ObjectRef, Manifest> byRef = new LinkedHashMap<>();
        Map<ObjectRef, String> rootOf = new HashMap<>();
        boolean hasNamespace = false;
        // The files under the root, in path order: a range of the sorted map, not a scan of the repo per app.
        // An Argo CD Application of several plain directories (spec.sources) reads each, in the order written.
        List<YamlFile> under = new ArrayList<>();
        Map<YamlFile, String> fromRoot = new java.util.IdentityHashMap<>();
        ArgoRead argo = a.rendering().argo();
        List<ArgoRead.More> roots = argo == null ? List.of(new ArgoRead.More(root, null, a.sourcePathAt())) : argo.directories(root, a.sourcePathAt());
        for (ArgoRead.More dir : roots) {
            String at = dir.path();
            if (dir != roots.get(0) && dir.directory().recurse()) {
                // The first path's charts are said above; a further one that recurses reads its folders' charts too.
                for (String chart : this.charts) {
                    if (chart.startsWith(at + "/") || at.isEmpty()) {
                        added.add(Diagnostic.error(dir.at(), "source path " + Excerpt.quoted(at) + " holds a Helm chart ("
                                + (chart.isEmpty() ? "" : chart + "/") + "Chart.yaml), which is rendered, not read"));
                        return List.of();
                    }
                }
            }
            if (files.containsKey(at) && fromRoot.putIfAbsent(files.get(at), at) == null) under.add(files.get(at));
            String prefix = at.isEmpty() ? "" : at + "/";
            for (YamlFile f : (at.isEmpty() ? files : files.subMap(at + "/", at + "/\uffff")).values()) {
                // An Argo CD Application reads the files its directory block picks, not every file below its path.
                if (argo != null && !dir.directory().reads(f.path().substring(prefix.length()))) continue;
                String first = fromRoot.putIfAbsent(f, at);
                if (first == null) under.add(f);
                else if (!first.equals(at)) {
                    added.add(Diagnostic.error(dir.at(), "file " + f.path() + " is read by two sources of application " + a.name() + ", path "
                            + (first.isEmpty() ? "." : first) + " and path " + (at.isEmpty() ? "." : at) + ", so each of its objects would be"
                            + " applied twice; make the paths not overlap (or set directory.recurse: false)"));
                }
            }
        }
        int problems = own.size() + added.size();
        int children = 0;
        for (YamlFile f : under) {
            covered.add(f.path());
            own.addAll(f.diagnostics());
            for (YamlDoc doc : f.docs()) {
                if (ArgoImports.claims(doc)) children++;
                if (doc.isWindlass() || KustomizeConfigs.is(doc) || FluxImports.claims(doc) || ArgoImports.claims(doc)) continue;
                for (YamlDoc object : cache.objects(doc, added)) {
                    Manifest m = cache.manifest(object, a.namespace(), scope, added);
                    if (m == null) continue;
                    Manifest first = byRef.putIfAbsent(m.ref(), m);
                    String firstRoot = rootOf.putIfAbsent(m.ref(), fromRoot.getOrDefault(f, root));
                    if (first != null && firstRoot != null && !firstRoot.equals(fromRoot.getOrDefault(f, root))) {
                        String other = fromRoot.getOrDefault(f, root);
                        added.add(Diagnostic.error(m.location(), m.ref() + " is printed by two sources of application " + a.name() + ": path "
                                + (firstRoot.isEmpty() ? "." : firstRoot) + " at " + first.location() + ", and path " + (other.isEmpty() ? "." : other)
                                + " here; Argo CD would apply one over the other: keep it in one source"));
                    } else if (first != null) {
                        added.add(Diagnostic.error(m.location(), m.ref() + " is defined twice in application " + a.name()
                                + "; the first is at " + first.location() + ". Keep one"));
                    }
                    if (m.ref().kind().equals("Namespace") && m.ref().group().isEmpty() && m.ref().name().equals(a.namespace())) hasNamespace = true;
                }
            }
        }
        // An Argo CD Application whose folder holds only Applications (app of apps) applies nothing itself: its children do.
        boolean parentOnly = argo != null && byRef.isEmpty() && children > 0;
        if (parentOnly) return List.of();
        if (byRef.isEmpty() && !a.rendering().allowEmpty() && own.size() + added.size() == problems) {
            added.add(Diagnostic.error(a.sourcePathAt(), "the source " + (files.containsKey(root) ? "file " : "folder ") + root
                    + " holds no manifests — add some, or set spec.source.allowEmpty: true if it is meant to be empty"));
        }
        List<Manifest> result = new ArrayList<>(byRef.values());
        if (!hasNamespace && !a.namespace().equals("default")) {
            result.add(ManifestReader.implicitNamespace(a.namespace(), a.location()));
        }
        return result;
    }

    private void checkReferences(AppDeclaration a, Map<String, RepoParser.Declared> apps, List<Diagnostic> added) {
        for (String c : a.placement().clusterNames()) {
            if (!clusters.containsKey(c) && a.rendering().argo() != null) {
                continue;  // said at its destination when it was read
            } else if (!clusters.containsKey(c) && a.rendering().flux() != null) {
                added.add(Diagnostic.error(a.location(), "Flux Kustomization of application " + a.name() + " is for the cluster " + Excerpt.quoted(c)
                        + " (Settings.spec.flux.clusters, " + a.clusterNamesAt() + "), but no Cluster has that name"
                        + (clusters.isEmpty() ? " (the repo defines no clusters)" : "; known: " + String.join(", ", clusters.keySet()))
                        + "; add the Cluster, or map this folder to another"));
            } else if (!clusters.containsKey(c)) {
                added.add(Diagnostic.error(a.clusterNamesAt(), "Application " + a.name() + " names cluster " + Excerpt.quoted(c
                       ) + " in spec.placement.clusterNames, but no Cluster has that name"
                        + (clusters.isEmpty() ? " (the repo defines no clusters)" : "; known: " + String.join(", ", clusters.keySet()))));
            }
        }
        for (String dep : a.dependsOn()) {
            if (dep.equals(a.name())) added.add(Diagnostic.error(a.dependsOnAt(), "Application " + a.name() + " depends on itself"));
            else if (!apps.containsKey(dep)) added.add(Diagnostic.error(a.dependsOnAt(), "Application " + a.name() + " depends on " + Excerpt.quoted(dep) + ", which does not exist"));
        }
    }

    /** A dependency cycle makes every application in it invalid: none of them could ever go first. */
    private static void cycles(Map<String, RepoParser.Declared> byName, Map<String, Application> apps, List<Diagnostic> extra) {
        Map<String, Integer> state = new HashMap<>();
        for (String start : byName.keySet()) {
            List<String> stack = new ArrayList<>();
            findCycle(start, byName, state, stack, apps, extra);
        }
    }

    private static void findCycle(String app, Map<String, RepoParser.Declared> byName, Map<String, Integer> state,
                                  List<String> stack, Map<String, Application> apps, List<Diagnostic> extra) {
        Integer s = state.get(app);
        if (s != null && s == 2) return;
        if (s != null && s == 1) {
            List<String> cycle = new ArrayList<>(stack.subList(stack.indexOf(app), stack.size()));
            cycle.add(app);
            for (String member : new HashSet<>(cycle)) {
                Application old = apps.get(member);
                Diagnostic d = Diagnostic.error(byName.get(member).decl().dependsOnAt(), "dependency cycle: " + String.join(" -> ", cycle));
                List<Diagnostic> ds = new ArrayList<>(old.diagnostics());
                ds.add(d);
                extra.add(d);
                apps.put(member, withDiagnostics(old, ds));
            }
            return;
        }
        RepoParser.Declared d = byName.get(app);
        if (d == null) return;
        state.put(app, 1);
        stack.add(app);
        for (String dep : d.decl().dependsOn()) findCycle(dep, byName, state, stack, apps, extra);
        stack.remove(stack.size() - 1);
        state.put(app, 2);
    }

    /** The application with {@code more} diagnostics beside its own, in order. */
    static Application withMore(Application a, List<Diagnostic> more) {
        List<Diagnostic> all = new ArrayList<>(a.diagnostics());
        all.addAll(more);
        all.sort(null);
        return withDiagnostics(a, all);
    }

    static Application withDiagnostics(Application a, List<Diagnostic> ds) {
        return a.withDiagnostics(ds);
    }

    private static Application build(RepoParser.Declared d, List<Manifest> manifests, List<Diagnostic> diagnostics, RenderSpec render) {
        AppDeclaration a = d.decl();
        List<String> hashes = manifests.stream().map(m -> m.ref() + "=" + m.hash()).sorted().toList();
        Map<String, Object> rendered = new TreeMap<>();
        // Suspending is not a change to what the app renders: the same revision resumes where it stopped.
        rendered.put("spec", a.spec() instanceof Map<?, ?> spec ? withoutKey(spec, "suspend") : a.spec());
        rendered.put("manifests", hashes);
        String revision = ContentHash.of(rendered).substring(0, 12);
        return new Application(a.name(), a.labels(), a.sourcePath(), a.namespace(), a.placement(), a.syncPolicy(),
                a.dependsOn(), a.suspend(), manifests, revision, diagnostics, a.location(), a.annotations(), render, Map.of(), a.decryption());
    }

    private static Map<Object, Object> withoutKey(Map<?, ?> map, String key) {
        Map<Object, Object> copy = new LinkedHashMap<>(map);
        copy.remove(key);
        return copy;
    }

    /** Which kinds are cluster-scoped: the built-in ones and those of every definition in the repo, in a list or not. */
    private static Scope scopeOf(List<YamlDoc> docs, ParseCache cache) {
        Set<String> scoped = new HashSet<>(Scope.BUILT_IN);
        for (YamlDoc doc : docs) {
            // What is wrong with a list's items is said when its application reads them, not here.
            for (YamlDoc object : cache.objects(doc, new ArrayList<>())) {
                if (!object.kind().equals("CustomResourceDefinition")) continue;
                if (object.value().get("spec") instanceof Map<?, ?> spec && "Cluster".equals(spec.get("scope"))
                        && spec.get("names") instanceof Map<?, ?> names) {
                    scoped.add(spec.get("group") + "/" + names.get("kind"));
                }
            }
        }
        return new Scope(scoped);
    }
}
