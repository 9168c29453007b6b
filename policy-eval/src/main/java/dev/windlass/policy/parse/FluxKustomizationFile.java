package dev.windlass.policy.parse;

import dev.windlass.policy.model.Diagnostic;
import dev.windlass.policy.model.SourceLocation;
import dev.windlass.policy.source.KustomizeReach;
import dev.windlass.policy.source.Snapshot;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.yaml.snakeyaml.DumperOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import org.yaml.snakeyaml.representer.Representer;

/**
 * The kustomization file Flux's kustomize-controller builds a Kustomization's path with, written the way it writes it:
 * the path's own kustomization (or, when it has none, one listing every YAML file of the folder and every sub-folder that
 * has a kustomization of its own), with {@code targetNamespace} as its namespace, {@code namePrefix} and {@code nameSuffix}
 * in place of its own, the Kustomization's {@code patches} and {@code components} after its own, and {@code images} merged
 * by name into its own. Kustomize itself then builds it: nothing here does what kustomize does.
 */
final class FluxKustomizationFile {
    private FluxKustomizationFile() {}

    /**
     * The file's path and text: what the build reads instead of the path's own kustomization ("" when the Kustomization
     * adds nothing to a kustomization the path has, which is then built as it is); null when it cannot be written (said
     * in {@code out}).
     */
    static Map.Entry<String, String> of(Snapshot snapshot, String path, FluxRead flux, SourceLocation pathAt, List<Diagnostic> out) {
        return of(snapshot, path, flux, Map.of(), Map.of(), pathAt, out);
    }

    /**
     * The same, with {@code commonLabels} and {@code commonAnnotations} added to the kustomization's own (an Argo CD
     * Application's {@code kustomize} block, as its {@code kustomize edit add label} writes them).
     */
    static Map.Entry<String, String> of(Snapshot snapshot, String path, FluxRead flux, Map<String, String> commonLabels,
                                        Map<String, String> commonAnnotations, SourceLocation pathAt, List<Diagnostic> out) {
        String existing = KustomizeReach.kustomization(snapshot.files(), path);
        Map<String, Object> k = new LinkedHashMap<>();
        String file;
        if (existing != null) {
            file = existing;
            Object doc;
            try {
                doc = new Yaml(new SafeConstructor(YamlReader.options())).load(new String(snapshot.read(existing), StandardCharsets.UTF_8));
            } catch (RuntimeException e) {
                return null;  // said where the file is read as YAML
            }
            if (!(doc instanceof Map<?, ?> m)) {
                out.add(Diagnostic.error(SourceLocation.file(existing), "the kustomization " + existing + " is not a mapping, so Flux's"
                        + " fields cannot be written into it"));
                return null;
            }
            if (!m.containsKey("apiVersion")) k.put("apiVersion", "kustomize.config.k8s.io/v1beta1");
            if (!m.containsKey("kind")) k.put("kind", "Kustomization");
            m.forEach((key, value) -> k.put(String.valueOf(key), value));
        } else {
            String prefix = path.isEmpty() ? "" : path + "/";
            boolean any = !snapshot.files().subMap(prefix, prefix + "\uffff").isEmpty();
            if (!any) {
                out.add(Diagnostic.error(pathAt, "the path " + (path.isEmpty() ? "." : path) + " of this Flux Kustomization does not exist in the repo;"
                        + " give a folder of its source"));
                return null;
            }
            file = prefix + "kustomization.yaml";
            k.put("apiVersion", "kustomize.config.k8s.io/v1beta1");
            k.put("kind", "Kustomization");
            List<String> resources = resources(snapshot, path);
            if (resources.isEmpty()) k.put("namespace", "_placeholder");  // as Flux does: an empty build, not a failed one
            else k.put("resources", resources);
        }
        boolean edited = existing == null;
        if (flux.targetNamespace() != null || flux.namePrefix() != null || flux.nameSuffix() != null || !flux.patches().isEmpty()
                || !flux.components().isEmpty() || !flux.images().isEmpty() || !commonLabels.isEmpty() || !commonAnnotations.isEmpty()) edited = true;
        if (!edited) return Map.entry(file, "");  // built as it is
        if (flux.targetNamespace() != null) k.put("namespace", flux.targetNamespace());
        if (flux.namePrefix() != null) k.put("namePrefix", flux.namePrefix());
        if (flux.nameSuffix() != null) k.put("nameSuffix", flux.nameSuffix());
        if (!flux.patches().isEmpty()) k.put("patches", appended(k.get("patches"), flux.patches()));
        if (!flux.components().isEmpty()) k.put("components", appended(k.get("components"), flux.components()));
        if (!flux.images().isEmpty()) k.put("images", images(k.get("images"), flux.images()));
        if (!commonLabels.isEmpty()) k.put("commonLabels", merged(k.get("commonLabels"), commonLabels));
        if (!commonAnnotations.isEmpty()) k.put("commonAnnotations", merged(k.get("commonAnnotations"), commonAnnotations));
        DumperOptions options = new DumperOptions();
        options.setDefaultFlowStyle(DumperOptions.FlowStyle.BLOCK);
        options.setSplitLines(false);
        return Map.entry(file, new Yaml(new SafeConstructor(YamlReader.options()), new Representer(options), options).dump(k));
    }

    /**
     * Every YAML file below {@code path} and every folder holding a kustomization (whose own files it reads), in the order
     * Flux's walk of the folder finds them, as paths relative to it.
     */
    static List<String> resources(Snapshot snapshot, String path) {
        String prefix = path.isEmpty() ? "" : path + "/";
        Set<String> withKustomization = new TreeSet<>();
        for (String f : snapshot.files().subMap(prefix, prefix + "\uffff").keySet()) {
            String rest = f.substring(prefix.length());
            int slash = rest.lastIndexOf('/');
            if (slash > 0 && KustomizeReach.FILE_NAMES.contains(rest.substring(slash + 1))) withKustomization.add(rest.substring(0, slash));
        }
        List<String> out = new ArrayList<>();
        Set<String> added = new TreeSet<>();
        for (String f : snapshot.files().subMap(prefix, prefix + "\uffff").keySet()) {
            String rest = f.substring(prefix.length());
            String folder = outermost(rest, withKustomization);
            if (folder != null) {
                if (added.add(folder)) out.add("./" + folder);
                continue;
            }
            if ((rest.endsWith(".yaml") || rest.endsWith(".yml")) && !RepoParser.hidden(rest)) out.add("./" + rest);
        }
        return out;
    }

    /** The outermost folder of {@code file} that holds a kustomization, or null. */
    private static String outermost(String file, Set<String> withKustomization) {
        for (int slash = file.indexOf('/'); slash > 0; slash = file.indexOf('/', slash + 1)) {
            if (withKustomization.contains(file.substring(0, slash))) return file.substring(0, slash);
        }
        return null;
    }

    private static Map<Object, Object> merged(Object own, Map<String, String> more) {
        Map<Object, Object> all = new LinkedHashMap<>();
        if (own instanceof Map<?, ?> m) all.putAll(m);
        all.putAll(new java.util.TreeMap<>(more));
        return all;
    }

    private static List<Object> appended(Object own, List<?> more) {
        List<Object> all = new ArrayList<>();
        if (own instanceof List<?> l) all.addAll(l);
        all.addAll(more);
        return all;
    }

    /** Flux's merge: an image of the same name takes the Kustomization's newName, and its newTag and digest together. */
    @SuppressWarnings("unchecked")
    private static List<Object> images(Object own, List<Map<String, Object>> more) {
        List<Object> all = new ArrayList<>();
        if (own instanceof List<?> l) for (Object o : l) all.add(o instanceof Map<?, ?> m ? new LinkedHashMap<>((Map<String, Object>) m) : o);
        for (Map<String, Object> image : more) {
            Map<String, Object> same = null;
            for (Object o : all) if (o instanceof Map<?, ?> m && image.get("name").equals(m.get("name"))) same = (Map<String, Object>) m;
            if (same == null) {
                all.add(image);
                continue;
            }
            if (image.containsKey("newName")) same.put("newName", image.get("newName"));
            if (image.containsKey("newTag") || image.containsKey("digest")) {
                same.remove("newTag");
                same.remove("digest");
                if (image.containsKey("newTag")) same.put("newTag", image.get("newTag"));
                if (image.containsKey("digest")) same.put("digest", image.get("digest"));
            }
        }
        return all;
    }
}
