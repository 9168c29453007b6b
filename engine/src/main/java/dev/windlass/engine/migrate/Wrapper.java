package dev.windlass.engine.migrate;

import dev.windlass.policy.source.Snapshot;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

/**
 * A kustomization of its own ({@code imported/<app>/kustomization.yaml}) that builds the repo's folder as a base and adds
 * what Flux or Argo CD write into its kustomization (a namespace, a prefix, patches, images, labels): the repo's folder,
 * which other applications may build too, is left as it is. For Flux it also leaves out the HelmReleases and their
 * sources, which Windlass reads instead of applying.
 *
 * <p>When no other application builds the folder, the kustomization the engine builds (the repo's, with what Flux or
 * Argo CD write into it) is written over the repo's own instead: exactly what was built, with nothing to translate.
 *
 * @param text    the kustomization, or null when the folder is built as it is
 * @param inPlace the repo's kustomization file {@code text} replaces, or null when it is a kustomization of its own
 * @param error   why it cannot be written, or null
 */
record Wrapper(String text, String inPlace, String error) {
    Wrapper(String text, String error) { this(text, null, error); }

    private static final List<String> NAMES = List.of("kustomization.yaml", "kustomization.yml", "Kustomization");
    private static final Set<String> SCALARS = Set.of("namespace", "namePrefix", "nameSuffix");
    private static final Set<String> MAPS = Set.of("commonLabels", "commonAnnotations");
    private static final Set<String> LISTS = Set.of("patches", "images", "components");

    static Wrapper of(Snapshot repo, String path, Map<String, String> written, String dir, boolean flux, boolean shared) {
        if (written.isEmpty() && !flux) return new Wrapper(null, null);
        String prefix = path.isEmpty() ? "" : path + "/";
        String own = NAMES.stream().map(n -> prefix + n).filter(repo.files()::containsKey).findFirst().orElse(null);
        if (own == null) {
            return new Wrapper(null, (path.isEmpty() ? "." : path) + " has no kustomization file, and Flux builds it with one it writes itself"
                    + " (listing its YAML files), which a native Application cannot say; add a kustomization.yaml to " + (path.isEmpty() ? "the repo's root" : path)
                    + " that lists them as resources, and import again");
        }
        Map<String, Object> original = load(new String(repo.read(own), StandardCharsets.UTF_8));
        Map<String, Object> generated = written.isEmpty() ? original : load(written.values().iterator().next());
        if (!shared) {
            Map<String, Object> built = new LinkedHashMap<>(generated);
            if (flux) built.put("patches", withDeletes(built.get("patches")));
            if (built.equals(original)) return new Wrapper(null, null);
            return new Wrapper("# Written by windlass import: what " + (flux ? "Flux" : "Argo CD") + " built here.\n" + NativeApplication.dump(built), own, null);
        }
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("apiVersion", "kustomize.config.k8s.io/v1beta1");
        out.put("kind", "Kustomization");
        out.put("resources", List.of(NativeImport.relative(dir, path)));
        for (var e : generated.entrySet()) {
            String key = e.getKey();
            Object before = original.get(key);
            // kustomize reads a kustomization without apiVersion and kind as this one: what Flux writes adds them.
            if (Objects.equals(before, e.getValue()) || key.equals("apiVersion") || key.equals("kind")) continue;
            if (SCALARS.contains(key)) {
                out.put(key, e.getValue());
            } else if (MAPS.contains(key) && e.getValue() instanceof Map<?, ?> m) {
                Map<Object, Object> added = new LinkedHashMap<>();
                m.forEach((k, v) -> {
                    if (!(before instanceof Map<?, ?> b) || !Objects.equals(b.get(k), v)) added.put(k, v);
                });
                out.put(key, added);
            } else if (LISTS.contains(key) && e.getValue() instanceof List<?> l) {
                List<Object> added = new ArrayList<>();
                for (Object item : l) {
                    if (before instanceof List<?> b && b.contains(item)) continue;
                    added.add(key.equals("components") && item instanceof String s ? NativeImport.relative(dir, join(path, s)) : item);
                }
                out.put(key, added);
            } else {
                return new Wrapper(null, "what is written into " + own + " changes its " + key + ", which import does not carry over yet;"
                        + " write it into " + own + " yourself, and import again");
            }
        }
        if (flux) out.put("patches", withDeletes(out.get("patches")));
        return new Wrapper("# Written by windlass import: builds " + (path.isEmpty() ? "." : path) + " as " + (flux ? "Flux" : "Argo CD")
                + " built it.\n" + NativeApplication.dump(out), null);
    }

    private static List<Object> withDeletes(Object patches) {
        List<Object> out = new ArrayList<>(patches instanceof List<?> l ? l : List.of());
        out.add(delete("helm.toolkit.fluxcd.io", "helm.toolkit.fluxcd.io/v2", "HelmRelease", "HelmRelease"));
        out.add(delete("source.toolkit.fluxcd.io", "source.toolkit.fluxcd.io/v1", "HelmRepository|OCIRepository", "HelmRepository"));
        return out;
    }

    /** A patch that leaves out every object of a kind: Windlass reads HelmReleases and their sources, it does not apply them. */
    private static Map<String, Object> delete(String group, String apiVersion, String kinds, String kind) {
        Map<String, Object> target = new LinkedHashMap<>();
        target.put("group", group);
        target.put("kind", kinds);
        Map<String, Object> p = new LinkedHashMap<>();
        p.put("target", target);
        p.put("patch", "$patch: delete\napiVersion: " + apiVersion + "\nkind: " + kind + "\nmetadata:\n  name: any\n");
        return p;
    }

    private static String join(String path, String relative) {
        return java.nio.file.Path.of(path.isEmpty() ? "." : path).resolve(relative).normalize().toString();
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> load(String text) {
        Object o = new Yaml(new SafeConstructor(new LoaderOptions())).load(text);
        return o instanceof Map<?, ?> m ? new LinkedHashMap<>((Map<String, Object>) m) : Map.of();
    }
}
