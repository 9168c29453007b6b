package dev.windlass.engine.migrate;

import dev.windlass.policy.flux.WaitedFor;
import dev.windlass.policy.model.Application;
import dev.windlass.policy.model.DesiredState;
import dev.windlass.policy.model.Diagnostic;
import dev.windlass.policy.model.FluxBuild;
import dev.windlass.policy.model.Manifest;
import dev.windlass.policy.model.RenderSpec;
import dev.windlass.policy.model.SourceLocation;
import dev.windlass.policy.source.MapSnapshot;
import dev.windlass.policy.source.Snapshot;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Function;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

/**
 * The applications Windlass imports from a repo's Flux or Argo CD objects, written as native Windlass objects: each
 * Flux Kustomization, HelmRelease or Argo CD Application document is replaced, in its own file, by the native
 * {@code Application} that reads the same; what a Flux or Argo CD build writes over the repo's kustomization is written
 * as a kustomization of its own under {@code imported/<app>/}. Both readings are then rendered and compared, cluster by
 * cluster: an application whose native reading differs, or that uses what the native format cannot express, is left as
 * it was, with a located error, and the others are written.
 */
public final class NativeImport {
    /** Which tool's objects are imported. */
    public enum Tool {
        FLUX("Flux"), ARGOCD("Argo CD");

        final String label;

        Tool(String label) { this.label = label; }
    }

    /**
     * @param changes  path to new content, or null for a file deleted
     * @param written  the applications written natively, by name, with the origin each replaces
     * @param kept     errors of the applications left as they were (their objects unchanged)
     * @param notes    what the user should know (a file whose comments were not kept, an application not compared)
     * @param unchecked applications written but not compared: their imported reading did not render here
     */
    public record Result(Map<String, byte[]> changes, Map<String, dev.windlass.policy.model.ImportOrigin> written, List<Diagnostic> kept, List<String> notes,
                         Map<String, String> unchecked) {}

    private static final String FLUX_KIND = "flux.windlass.dev/kind";
    private static final String ARGO_NAME = "argocd.windlass.dev/name";
    private static final String ARGO_PARENT = "argocd.windlass.dev/parent";
    private static final String ARGO_SET = "argocd.windlass.dev/applicationset";

    private final Function<Snapshot, DesiredState> reading;

    /** @param reading how a commit is read and rendered: the engine's own ({@code AppRendering::read}) */
    public NativeImport(Function<Snapshot, DesiredState> reading) { this.reading = reading; }

    public Result run(MapSnapshot repo, Tool tool) {
        DesiredState imported = reading.apply(repo);
        Map<String, Application> apps = new TreeMap<>();
        imported.apps().forEach((name, app) -> {
            if (origin(app, tool) != null) apps.put(name, app);
        });
        // A folder more than one application builds is left as it is: what one of them writes into it goes in a kustomization of its own.
        Map<String, Integer> builders = new TreeMap<>();
        imported.apps().values().forEach(a -> {
            if (a.render() != null && a.render().kustomize() != null) builders.merge(a.render().kustomize(), 1, Integer::sum);
        });
        Set<String> shared = new TreeSet<>();
        builders.forEach((path, n) -> {
            if (n > 1) shared.add(path);
        });
        Map<String, Diagnostic> failed = new TreeMap<>();
        // Those with errors as they are read are left as they are; one whose chart cannot be fetched here is written, not compared.
        Map<String, String> unchecked = new TreeMap<>();
        for (Application was : apps.values()) {
            if (was.valid()) continue;
            String first = was.diagnostics().stream().filter(Diagnostic::isError).findFirst().map(Object::toString).orElse("");
            if (!onlyUnrendered(was)) {
                failed.put(was.name(), Diagnostic.error(origin(was, tool), was.name() + " has errors as " + tool.label + " objects are read ("
                        + first + "); it is left as it was: correct them, and import again"));
            } else if (was.render() != null && was.render().flux() != null && was.render().flux().crdsOnce()) {
                unchecked.put(was.name(), first + "; if its chart renders CustomResourceDefinitions, Flux's reading creates them once and never"
                        + " updates them (upgrade.crds: Skip), and the native Application keeps them up to date");
            } else {
                unchecked.put(was.name(), first);
            }
        }
        if (tool == Tool.FLUX) objectChecks(apps, failed);
        Map<String, Application> read = Map.copyOf(apps);
        Set<String> secrets = SecretValues.of(repo);
        // Each round leaves out at least one more application, or returns: it ends.
        while (true) {
            spread(apps, failed, tool);
            if (tool == Tool.FLUX) waits(apps, read, imported, failed);
            Draft draft = draft(repo, apps, failed, tool, shared, secrets);
            if (!draft.errors.isEmpty()) {
                failed.putAll(draft.errors);
                continue;
            }
            DesiredState rewritten = reading.apply(apply(repo, draft.changes));
            Map<String, Diagnostic> differing = new TreeMap<>();
            for (Application was : apps.values()) {
                if (failed.containsKey(was.name()) || unchecked.containsKey(was.name())) continue;
                String difference = Comparison.difference(was, rewritten.apps().get(was.name()));
                if (difference != null) differing.put(was.name(), Diagnostic.error(origin(was, tool), "the native Application written for "
                        + was.name() + " reads differently from the " + tool.label + " object: " + difference + "; it is left as it was"));
            }
            if (!differing.isEmpty()) {
                failed.putAll(differing);
                continue;
            }
            Map<String, dev.windlass.policy.model.ImportOrigin> written = new TreeMap<>();
            apps.forEach((name, app) -> {
                if (!failed.containsKey(name)) written.put(name, dev.windlass.policy.model.ImportOrigin.of(app));
            });
            unchecked.keySet().removeIf(failed::containsKey);
            List<String> notes = new ArrayList<>(draft.notes);
            apps.forEach((name, app) -> {
                List<String> was = read.get(name).dependsOn();
                if (failed.containsKey(name) || app.dependsOn().equals(was)) return;
                notes.add(name + ": dependsOn also names " + String.join(", ", app.dependsOn().subList(was.size(), app.dependsOn().size()))
                        + ", which the Flux Kustomizations it depends on wait for (wait: true, healthChecks)");
            });
            return new Result(draft.changes, written, List.copyOf(new TreeSet<>(failed.values())), notes, unchecked);
        }
    }

    /**
     * A healthChecks entry naming an object has no native form: that Kustomization is left as it was, with an error at the
     * entry (what depends on it still waits for it, as a Flux Kustomization).
     */
    private static void objectChecks(Map<String, Application> apps, Map<String, Diagnostic> failed) {
        for (Application app : apps.values()) {
            List<dev.windlass.policy.model.FluxHealth.OfObject> objects = WaitedFor.objectChecks(app);
            if (objects.isEmpty() || failed.containsKey(app.name())) continue;
            var first = objects.get(0);
            failed.put(app.name(), Diagnostic.error(first.at(), "Kustomization.spec.healthChecks names " + first.ref() + ", an object: a native"
                    + " Application waits for applications to be Healthy (dependsOn), not for one object; name the HelmRelease or"
                    + " Kustomization that applies it instead and import again, or keep this Kustomization on Flux"));
        }
    }

    /**
     * A Flux Kustomization's readiness in the native format: for each one written natively, {@code wait: true} and the
     * healthChecks entries that name applications become dependencies of each application that depends on it
     * ({@link WaitedFor}), so that it waits for the same applications. One left as it was keeps its readiness, which
     * what depends on it waits for as before. Worked out again each round, from the applications as read.
     */
    private static void waits(Map<String, Application> apps, Map<String, Application> read, DesiredState imported, Map<String, Diagnostic> failed) {
        apps.replaceAll((name, app) -> read.get(name).withDependsOn(WaitedFor.dependsOn(read.get(name), imported.apps(), k -> !failed.containsKey(k))));
    }

    /**
     * Whether every error of {@code app} is that it could not be rendered where import runs (its chart could not be
     * fetched, say): its objects are read as they are, so it is written, but said not compared.
     */
    private static boolean onlyUnrendered(Application app) {
        return app.diagnostics().stream().filter(Diagnostic::isError).allMatch(d -> d.cause() == Diagnostic.Cause.RENDER);
    }

    /** The Flux or Argo CD object {@code app} is read from, or null when it is not imported from {@code tool}. */
    static SourceLocation origin(Application app, Tool tool) {
        if (tool == Tool.FLUX) {
            return app.render() != null && app.render().flux() != null && app.render().flux().from() == FluxBuild.From.FLUX ? app.render().flux().origin() : null;
        }
        return app.labels().containsKey(ARGO_NAME) ? app.location() : null;
    }

    /**
     * What is read together is written together: a HelmRelease is found only in its Kustomization's build, and an Argo CD
     * Application in its parent's folder, so one left as it was keeps the others of its group as they were. And a Flux
     * Kustomization whose wait or healthChecks another left as it was waits for stays as it was too.
     */
    private static void spread(Map<String, Application> apps, Map<String, Diagnostic> failed, Tool tool) {
        boolean changed = true;
        while (changed) {
            changed = false;
            for (Application app : apps.values()) {
                if (failed.containsKey(app.name())) continue;
                String with = partner(app, apps, failed, tool);
                if (with != null) {
                    failed.put(app.name(), Diagnostic.error(origin(app, tool), app.name() + " is read together with " + with
                            + ", which is left as it was (see its error); it is left as it was too"));
                    changed = true;
                    continue;
                }
                String waiter = tool == Tool.FLUX ? keptWaiter(app, apps, failed) : null;
                if (waiter != null) {
                    failed.put(app.name(), Diagnostic.error(origin(app, tool), app.name() + " is left as it was: " + waiter + " depends on it and"
                            + " is left as it was, and only the Flux reading makes " + waiter + " wait for what " + app.name() + "'s wait and"
                            + " healthChecks name"));
                    changed = true;
                }
            }
        }
    }

    /**
     * An application left as it was that depends on the Flux Kustomization {@code app} and waits for what its wait or
     * healthChecks name: written natively, {@code app} would lose them, and the Flux object left as it was would not wait.
     */
    private static String keptWaiter(Application app, Map<String, Application> apps, Map<String, Diagnostic> failed) {
        var gate = dev.windlass.policy.model.FluxHealth.of(app);
        boolean namesApps = gate.waitForPrinted() || gate.checks().stream().anyMatch(c -> c instanceof dev.windlass.policy.model.FluxHealth.OfApp);
        if (!namesApps) return null;
        for (String other : failed.keySet()) {
            Application o = apps.get(other);
            if (o != null && o.dependsOn().contains(app.name()) && !app.name().equals(dev.windlass.policy.model.FluxHealth.printedBy(o))) return other;
        }
        return null;
    }

    private static String partner(Application app, Map<String, Application> apps, Map<String, Diagnostic> failed, Tool tool) {
        for (String other : failed.keySet()) {
            Application o = apps.get(other);
            if (o == null) continue;
            if (tool == Tool.FLUX && Objects.equals(origin(o, tool), origin(app, tool))) return other;
            if (tool == Tool.ARGOCD) {
                if (other.equals(app.labels().get(ARGO_PARENT)) || app.name().equals(o.labels().get(ARGO_PARENT))) return other;
                String set = app.labels().get(ARGO_SET);
                if (set != null && set.equals(o.labels().get(ARGO_SET))) return other;
            }
        }
        return null;
    }

    private record Draft(Map<String, byte[]> changes, Map<String, Diagnostic> errors, List<String> notes) {}

    private static final class Edits {
        final Map<String, List<String>> replacing = new TreeMap<>();  // "path:line" of a document -> what is written instead
        final Map<String, String> added = new TreeMap<>();
    }

    /** The files of the import with every application not in {@code failed} written natively. */
    private static Draft draft(MapSnapshot repo, Map<String, Application> apps, Map<String, Diagnostic> failed, Tool tool, Set<String> shared,
                               Set<String> secrets) {
        Map<String, Diagnostic> errors = new TreeMap<>();
        List<String> notes = new ArrayList<>();
        Edits edits = new Edits();
        Map<String, String> byOrigin = new TreeMap<>();  // the document each origin is in, by "path:firstLine"
        for (Application app : apps.values()) {
            if (failed.containsKey(app.name())) continue;
            SourceLocation at = origin(app, tool);
            String doc = document(repo, at);
            if (doc == null) {
                errors.put(app.name(), Diagnostic.error(at, "import could not find the document of " + app.name() + " in " + at.path()));
                continue;
            }
            Translation t = Translation.of(repo, app, tool, app.render() != null && app.render().kustomize() != null && shared.contains(app.render().kustomize()));
            if (t.error() != null) {
                errors.put(app.name(), t.error());
                continue;
            }
            String leak = SecretValues.foundIn(secrets, t.application(), t.files().values());
            if (leak != null) {
                errors.put(app.name(), Diagnostic.error(at, "what would be written for " + app.name() + " holds a value of " + leak
                        + ", and import writes no Secret value into Git; keep this application on " + tool.label + ", or have it read"
                        + " the Secret by name"));
                continue;
            }
            byOrigin.put(app.name(), doc);
            edits.replacing.computeIfAbsent(doc, k -> new ArrayList<>()).add(t.application());
            edits.added.putAll(t.files());
        }
        if (!errors.isEmpty()) return new Draft(Map.of(), errors, notes);
        Map<String, byte[]> changes = new TreeMap<>();
        // The documents replaced, file by file; a file left with no document is deleted.
        Map<String, Map<Integer, List<String>>> byFile = new TreeMap<>();
        edits.replacing.forEach((key, texts) -> {
            int colon = key.lastIndexOf(':');
            byFile.computeIfAbsent(key.substring(0, colon), k -> new TreeMap<>()).put(Integer.parseInt(key.substring(colon + 1)), texts);
        });
        boolean everyOne = apps.keySet().stream().noneMatch(failed::containsKey);
        for (String path : repo.files().keySet()) {
            if (!(path.endsWith(".yaml") || path.endsWith(".yml"))) continue;
            Map<Integer, List<String>> replace = byFile.getOrDefault(path, Map.of());
            String text = new String(repo.read(path), StandardCharsets.UTF_8);
            if (replace.isEmpty() && !(everyOne && (text.contains("kind: ArtifactGenerator") || text.contains("kind: Settings")))) continue;
            List<String> out = new ArrayList<>();
            boolean changed = false;
            for (YamlChunks.Chunk c : YamlChunks.of(text)) {
                if (replace.containsKey(c.firstLine())) {
                    out.add(String.join("---\n", replace.get(c.firstLine())));
                    changed = true;
                } else if (everyOne && tool == Tool.FLUX && c.kind().equals("ArtifactGenerator") && c.apiVersion().startsWith("source.extensions.fluxcd.io/")) {
                    changed = true;  // it only said which folders a Kustomization reads; the native Applications name them
                } else if (everyOne && c.kind().equals("Settings") && c.apiVersion().startsWith("windlass.dev/")) {
                    String without = settingsWithout(c, tool == Tool.FLUX ? "flux" : "argocd");
                    if (without != null) {
                        out.add(without);
                        changed = true;
                        notes.add(path + ": Settings.spec." + (tool == Tool.FLUX ? "flux" : "argocd") + " removed; that document is written anew,"
                                + " without its comments");
                    } else {
                        out.add(c.text());
                    }
                } else {
                    out.add(c.text());
                }
            }
            if (!changed) continue;
            String joined = YamlChunks.join(out);
            changes.put(path, joined.isEmpty() ? null : joined.getBytes(StandardCharsets.UTF_8));
        }
        edits.added.forEach((p, t) -> changes.put(p, t.getBytes(StandardCharsets.UTF_8)));
        return new Draft(changes, errors, notes);
    }

    /** "path:firstLine" of the document of {@code repo} that holds {@code at}, or null. */
    private static String document(Snapshot repo, SourceLocation at) {
        if (at == null || !repo.files().containsKey(at.path())) return null;
        for (YamlChunks.Chunk c : YamlChunks.of(new String(repo.read(at.path()), StandardCharsets.UTF_8))) {
            if (at.line() >= c.firstLine() && at.line() <= c.lastLine()) return at.path() + ":" + c.firstLine();
        }
        return null;
    }

    @SuppressWarnings("unchecked")
    private static String settingsWithout(YamlChunks.Chunk c, String key) {
        Map<String, Object> value = new LinkedHashMap<>(c.value());
        if (!(value.get("spec") instanceof Map<?, ?> spec) || !spec.containsKey(key)) return null;
        Map<String, Object> rest = new LinkedHashMap<>((Map<String, Object>) spec);
        rest.remove(key);
        if (rest.isEmpty()) value.remove("spec");
        else value.put("spec", rest);
        return NativeApplication.dump(value);
    }

    static MapSnapshot apply(MapSnapshot repo, Map<String, byte[]> changes) {
        Map<String, byte[]> files = new TreeMap<>();
        repo.files().keySet().forEach(p -> files.put(p, repo.read(p)));
        changes.forEach((p, b) -> {
            if (b == null) files.remove(p);
            else files.put(p, b);
        });
        return new MapSnapshot("1111111111111111111111111111111111111111", files, repo.symlinks());
    }

    /** What one application is written as: its native document and the files it needs, or why it cannot be. */
    record Translation(String application, Map<String, String> files, Diagnostic error) {
        static Translation failed(SourceLocation at, String message) { return new Translation(null, Map.of(), Diagnostic.error(at, message)); }

        static Translation of(Snapshot repo, Application app, Tool tool, boolean sharedFolder) {
            RenderSpec render = app.render();
            SourceLocation origin = origin(app, tool);
            Map<String, String> labels = new TreeMap<>(app.labels());
            // The label that marks an application as read from Argo CD (it lists it under "Imported from Argo CD"): a native one is not.
            labels.remove(ARGO_NAME);
            Map<String, String> files = new TreeMap<>();
            Map<String, Object> source = new LinkedHashMap<>();
            String dir = "imported/" + app.name();
            if (render == null) {
                String prefix = app.sourcePath().isEmpty() ? "" : app.sourcePath() + "/";
                List<String> outside = app.manifests().stream().filter(m -> !m.implicit() && m.location() != null
                        && !m.location().path().startsWith(prefix)).map(m -> m.location().path()).distinct().sorted().toList();
                if (tool == Tool.ARGOCD && !outside.isEmpty()) {
                    // Several plain directories of spec.sources: a native Application reads one folder.
                    return failed(FluxReleaseSecrets.field(repo, origin, "spec", "sources"), "Argo CD Application " + app.labels().get(ARGO_NAME)
                            + " applies the files of several plain directories of spec.sources (" + (prefix.isEmpty() ? "." : app.sourcePath())
                            + ", and " + String.join(", ", outside) + "), which a native Application cannot say: it reads one spec.source.path;"
                            + " move the files into one folder and give one source, then import again, or keep this Application on Argo CD");
                }
                source.put("path", app.sourcePath().isEmpty() ? "." : app.sourcePath());
                if (app.manifests().stream().allMatch(Manifest::implicit)) source.put("allowEmpty", true);
            } else if (render.helm() != null) {
                if (tool == Tool.FLUX) {
                    Diagnostic secret = FluxReleaseSecrets.valuesFromSecret(repo, app);
                    if (secret != null) return new Translation(null, Map.of(), secret);
                    if (render.flux().crdsOnce() && app.variants().values().stream().anyMatch(v -> v.manifests().stream()
                            .anyMatch(m -> m.ref().kind().equals("CustomResourceDefinition")))) {
                        return failed(FluxReleaseSecrets.release(repo, app), "HelmRelease " + app.labels().get("flux.windlass.dev/name")
                                + " creates its chart's CustomResourceDefinitions once and never updates them (upgrade.crds: Skip, Flux's default),"
                                + " which a native Application cannot say for a chart's objects; set spec.upgrade.crds: CreateReplace if they may be"
                                + " kept up to date, and import again, or keep the release on Flux");
                    }
                }
                RenderSpec.Helm h = render.helm();
                Map<String, Object> helm = new LinkedHashMap<>();
                if (!h.chartPath().isEmpty()) {
                    helm.put("chart", h.chartPath());
                } else {
                    helm.put("chart", h.chart());
                    helm.put("repoURL", h.repoURL());
                    helm.put("version", h.version());
                }
                helm.put("releaseName", h.releaseName());
                if (!h.values().isEmpty()) helm.put("values", new Yaml(new SafeConstructor(new LoaderOptions())).load(h.values()));
                List<String> valuesFiles = new ArrayList<>();
                for (String f : h.valuesFiles()) {
                    String text = render.flux() == null ? null : render.flux().files().get(f);
                    if (text != null) {
                        // Values Argo CD passes after the values files: a file of their own, read last, as they were.
                        String path = dir + "/values.yaml";
                        files.put(path, text);
                        valuesFiles.add(path);
                    } else {
                        valuesFiles.add(f);
                    }
                }
                if (!valuesFiles.isEmpty()) helm.put("valuesFiles", valuesFiles);
                if (h.skipCrds()) helm.put("skipCrds", true);
                source.put("helm", helm);
                if (render.allowEmpty()) source.put("allowEmpty", true);
            } else {
                FluxBuild flux = render.flux();
                if (flux != null && !flux.substitute().isEmpty()) {
                    return failed(FluxReleaseSecrets.field(repo, origin, "spec", "postBuild"), "Kustomization.spec.postBuild substitutes variables"
                            + " into what kustomize builds, which a native Application cannot say (and substituteFrom's Secrets would be written"
                            + " out); write the values into the manifests or a kustomize patch, remove postBuild, and import again");
                }
                Wrapper w = Wrapper.of(repo, render.kustomize(), flux == null ? Map.of() : flux.files(), dir, tool == Tool.FLUX, sharedFolder);
                if (w.error() != null) return failed(FluxReleaseSecrets.field(repo, origin, "spec", "path"), w.error());
                if (w.inPlace() != null) {
                    files.put(w.inPlace(), w.text());
                    source.put("path", render.kustomize());
                } else if (w.text() == null) {
                    source.put("path", render.kustomize());
                } else {
                    files.put(dir + "/kustomization.yaml", w.text());
                    source.put("path", dir);
                }
                if (render.allowEmpty()) source.put("allowEmpty", true);
            }
            return new Translation(NativeApplication.yaml(app, labels, source), files, null);
        }
    }

    /** What a user sees of an application in either reading: its clusters, the objects on each, how they are applied. */
    static final class Comparison {
        private Comparison() {}

        /** What differs between the imported reading and the native one, in a few words; null when nothing. */
        static String difference(Application was, Application now) {
            if (now == null) return "it is not read at all";
            if (!now.valid()) return "it has errors: " + now.diagnostics().stream().filter(Diagnostic::isError).findFirst().map(Object::toString).orElse("");
            if (!was.variants().keySet().equals(now.variants().keySet())) return "its clusters " + now.variants().keySet() + " are not " + was.variants().keySet();
            for (String cluster : was.variants().keySet()) {
                Map<String, Object> a = objects(was.variants().get(cluster).manifests());
                Map<String, Object> b = objects(now.variants().get(cluster).manifests());
                if (!a.keySet().equals(b.keySet())) return "on " + cluster + " it applies " + b.keySet() + ", not " + a.keySet();
                for (String k : a.keySet()) {
                    if (!a.get(k).equals(b.get(k))) return "on " + cluster + " its " + k + " differs";
                }
            }
            if (!was.namespace().equals(now.namespace())) return "its namespace is " + now.namespace() + ", not " + was.namespace();
            if (!was.syncPolicy().equals(now.syncPolicy())) return "its sync policy differs";
            if (!was.dependsOn().equals(now.dependsOn())) return "it depends on " + now.dependsOn() + ", not " + was.dependsOn();
            if (was.suspend() != now.suspend()) return "it is " + (now.suspend() ? "" : "not ") + "suspended";
            Map<String, String> labels = new TreeMap<>(was.labels());
            labels.remove(ARGO_NAME);
            if (!labels.equals(now.labels())) return "its labels differ";
            return null;
        }

        /** The objects applied, by kind, namespace and name, with their bodies and how they are applied. */
        static Map<String, Object> objects(List<Manifest> manifests) {
            Map<String, Object> out = new TreeMap<>();
            for (Manifest m : manifests) {
                if (m.implicit()) continue;
                out.put(m.ref().group() + "/" + m.ref().kind() + "/" + m.ref().namespace() + "/" + m.ref().name(),
                        List.of(m.body(), m.applyMode(), m.gcPolicy(), m.wave()));
            }
            return out;
        }
    }

    static String relative(String from, String to) { return Path.of(from).relativize(Path.of(to.isEmpty() ? "." : to)).toString(); }
}
