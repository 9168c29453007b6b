package dev.windlass.policy.parse;

import dev.windlass.policy.model.Application;
import dev.windlass.policy.model.Diagnostic;
import dev.windlass.policy.model.Manifest;
import dev.windlass.policy.model.ObjectRef;
import dev.windlass.policy.model.SourceLocation;
import dev.windlass.policy.source.Snapshot;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The HelmReleases a Flux Kustomization's build printed, each read as an application of its own
 * ({@link FluxHelmReleaseReader}): named {@code <folder>-<name>}, placed where the Kustomization is, applied after it.
 * The HelmRelease, HelmRepository and OCIRepository objects themselves are not applied: on a cluster without Flux they
 * would do nothing, and Windlass does what they say.
 */
public final class FluxHelmReleases {
    private FluxHelmReleases() {}

    /**
     * What a build's HelmReleases are read as.
     *
     * @param apps     one application per HelmRelease, each holding its own errors
     * @param problems what holds the Kustomization's application instead (a release that cannot be an application at all)
     */
    public record Imported(List<Application> apps, List<Diagnostic> problems) {
        public Imported {
            apps = List.copyOf(apps);
            problems = List.copyOf(problems);
        }
    }

    /** Whether {@code m} is a Flux object that Windlass reads rather than applies: a HelmRelease or a chart's source. */
    public static boolean taken(Manifest m) {
        String group = m.ref().group();
        String kind = m.ref().kind();
        return group.equals("helm.toolkit.fluxcd.io") && kind.equals("HelmRelease")
                || group.equals("source.toolkit.fluxcd.io") && (kind.equals("HelmRepository") || kind.equals("OCIRepository"));
    }

    /**
     * @param kustomization the application of the Flux Kustomization whose build this is
     * @param built         every object the build printed (for one cluster)
     * @param snapshot      the commit, whose files the build read
     * @param reached       the paths of the files the build read, where each object's fields are found for errors
     */
    public static Imported read(Application kustomization, List<Manifest> built, Snapshot snapshot, Collection<String> reached) {
        String folderKey = kustomization.labels().getOrDefault(FluxKustomizationReader.LABEL_FOLDER, "");
        Map<String, Manifest> byKey = new HashMap<>();
        for (Manifest m : built) byKey.put(m.ref().kind() + "/" + m.ref().namespace() + "/" + m.ref().name(), m);
        Declarations declarations = new Declarations(snapshot, reached, kustomization.location());
        FluxHelmReleaseReader.Build build = new FluxHelmReleaseReader.Build() {
            @Override public Manifest find(String kind, String namespace, String name) { return byKey.get(kind + "/" + namespace + "/" + name); }

            @Override public YamlDoc doc(Manifest m) {
                String text = FluxHelmValues.dump(m.body());
                return YamlReader.read("", "", text.getBytes(StandardCharsets.UTF_8)).docs().get(0);
            }

            @Override public RenderedPlaces places(Manifest m) { return declarations.of(m.ref()); }
        };
        List<Application> apps = new ArrayList<>();
        List<Diagnostic> problems = new ArrayList<>();
        for (Manifest m : built) {
            if (!m.ref().group().equals("helm.toolkit.fluxcd.io") || !m.ref().kind().equals("HelmRelease")) continue;
            Application app = FluxHelmReleaseReader.read(m, kustomization, folderKey, build, problems);
            if (app != null) apps.add(app);
        }
        return new Imported(apps, problems);
    }

    /** The documents of the files a build read that declare an object, by kind and name: read only when asked. */
    private static final class Declarations {
        private final Snapshot snapshot;
        private final Collection<String> reached;
        private final SourceLocation fallback;
        private final Map<String, List<YamlDoc>> byKind = new HashMap<>();

        Declarations(Snapshot snapshot, Collection<String> reached, SourceLocation fallback) {
            this.snapshot = snapshot;
            this.reached = reached;
            this.fallback = fallback;
        }

        RenderedPlaces of(ObjectRef ref) {
            List<YamlDoc> docs = byKind.computeIfAbsent(ref.kind(), this::read);
            List<YamlDoc> same = docs.stream().filter(d -> ref.name().equals(DocPositions.name(d))).toList();
            if (same.isEmpty()) {
                // A name the build changed (a prefix or suffix): the declarations whose name it holds.
                same = docs.stream().filter(d -> DocPositions.name(d) != null && ref.name().contains(DocPositions.name(d))).toList();
            }
            // The declaration that names the chart first (the base), then the patches over it.
            List<YamlDoc> ordered = new ArrayList<>(same.stream().filter(FluxHelmReleases::namesAChart).toList());
            same.stream().filter(d -> !namesAChart(d)).forEach(ordered::add);
            return new RenderedPlaces(ordered, fallback);
        }

        private List<YamlDoc> read(String kind) {
            byte[] needle = ("kind: " + kind).getBytes(StandardCharsets.UTF_8);
            List<YamlDoc> docs = new ArrayList<>();
            for (String path : reached) {
                if (!(path.endsWith(".yaml") || path.endsWith(".yml")) || !snapshot.files().containsKey(path)) continue;
                byte[] bytes = snapshot.read(path);
                if (!contains(bytes, needle)) continue;
                for (YamlDoc d : YamlReader.read(path, snapshot.files().get(path), bytes).docs()) {
                    if (d.kind().equals(kind)) docs.add(d);
                }
            }
            return docs;
        }
    }

    private static boolean namesAChart(YamlDoc d) {
        return d.value().get("spec") instanceof Map<?, ?> s && (s.containsKey("url") || s.get("chart") instanceof Map<?, ?> c && c.containsKey("spec")
                || s.containsKey("chartRef"));
    }

    private static boolean contains(byte[] haystack, byte[] needle) {
        outer:
        for (int i = 0; i + needle.length <= haystack.length; i++) {
            for (int j = 0; j < needle.length; j++) if (haystack[i + j] != needle[j]) continue outer;
            return true;
        }
        return false;
    }
}
