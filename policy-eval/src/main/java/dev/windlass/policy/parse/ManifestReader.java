package dev.windlass.policy.parse;

import dev.windlass.policy.text.Excerpt;
import dev.windlass.policy.diff.ContentHash;
import dev.windlass.policy.model.Diagnostic;
import dev.windlass.policy.model.Hook;
import dev.windlass.policy.model.Manifest;
import dev.windlass.policy.model.Manifest.ApplyMode;
import dev.windlass.policy.model.Manifest.GcPolicy;
import dev.windlass.policy.model.ObjectRef;
import dev.windlass.policy.model.SourceLocation;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Turns one plain Kubernetes document (or one item of a list, see {@link ListItems}) into a {@link Manifest}: checks
 * the fields every object needs, defaults the namespace, and reads the {@code windlass.dev/*} annotations.
 */
final class ManifestReader {
    private ManifestReader() {}

    static Manifest read(YamlDoc doc, String defaultNamespace, Scope scope, List<Diagnostic> out) {
        SourceLocation at = doc.location();
        Map<String, Object> v = doc.value();
        String apiVersion = v.get("apiVersion") instanceof String s && !s.isBlank() ? s : null;
        String kind = v.get("kind") instanceof String s && !s.isBlank() ? s : null;
        Map<?, ?> metadata = v.get("metadata") instanceof Map<?, ?> m ? m : null;
        String name = metadata != null && metadata.get("name") instanceof String s && !s.isBlank() ? s : null;
        // A hook is made anew each run, so it may leave its name to the server; any other object needs a stable name.
        boolean generated = false;
        if (name == null && metadata != null && metadata.get("generateName") instanceof String g && !g.isBlank() && isHook(metadata)) {
            name = g;
            generated = true;
        }
        if (apiVersion == null || kind == null || name == null) {
            String missing = apiVersion == null ? "apiVersion" : kind == null ? "kind" : "metadata.name";
            out.add(Diagnostic.error(at, "object has no " + missing
                    + "; every Kubernetes object needs apiVersion, kind and metadata.name"
                    + (metadata != null && metadata.get("generateName") != null ? " (generateName is allowed only on resource hooks: other objects need a"
                    + " stable name to be tracked)" : "")));
            return null;
        }
        Diagnostic refused = ManifestSchema.check(doc, v, apiVersion, kind, name);
        if (refused != null) {
            out.add(refused);
            return null;
        }
        String group = ObjectRef.groupOf(apiVersion);
        String namespace = metadata.get("namespace") instanceof String s ? s : null;
        List<Diagnostic> invalid = MetadataRules.check(doc, group, kind, name, scope.isClusterScoped(group, kind) ? null : namespace, generated);
        if (!invalid.isEmpty()) {
            out.addAll(invalid);
            return null;
        }
        Map<String, Object> body = v;
        if (scope.isClusterScoped(group, kind)) {
            if (namespace != null) {
                out.add(Diagnostic.warning(at, kind + " " + name + " is cluster-scoped; its metadata.namespace " + Excerpt.quoted(namespace) + " is ignored"));
                body = withNamespace(v, null);
            }
            namespace = "";
        } else if (namespace == null) {
            namespace = defaultNamespace;
            body = withNamespace(v, namespace);
        }
        Map<?, ?> annotations = metadata.get("annotations") instanceof Map<?, ?> a ? a : Map.of();
        java.util.function.Function<String, String> ann = k -> annotations.get(k) == null ? null : String.valueOf(annotations.get(k));
        int wave = wave(annotations, at, out);
        ApplyMode apply = switch (java.util.Objects.requireNonNullElse(ann.apply(Manifest.ANNOTATION_APPLY), "Always")) {
            case "Always" -> ApplyMode.ALWAYS;
            case "Once" -> ApplyMode.ONCE;
            default -> {
                out.add(Diagnostic.error(at, "annotation " + Manifest.ANNOTATION_APPLY + " on " + kind + " " + name + " must be Always or Once"));
                yield null;
            }
        };
        GcPolicy gc = switch (java.util.Objects.requireNonNullElse(ann.apply(Manifest.ANNOTATION_GC), "OnAppUpdate")) {
            case "OnAppUpdate" -> GcPolicy.ON_APP_UPDATE;
            case "OnAppDelete" -> GcPolicy.ON_APP_DELETE;
            case "Never" -> GcPolicy.NEVER;
            default -> {
                out.add(Diagnostic.error(at, "annotation " + Manifest.ANNOTATION_GC + " on " + kind + " " + name + " must be OnAppUpdate, OnAppDelete or Never"));
                yield null;
            }
        };
        if (apply == null || gc == null || wave == Integer.MIN_VALUE) return null;
        Hook hook = HookAnnotations.read(annotations, kind, name, wave, generated, at, out);
        if (hook == HookAnnotations.INVALID) return null;
        ObjectRef ref = new ObjectRef(group, kind, namespace, name);
        String reserved = Reserved.why(ref);
        if (reserved != null) {
            out.add(Diagnostic.error(at, reserved));
            return null;
        }
        return new Manifest(ref, apiVersion, body, at, ContentHash.of(body), wave, apply, gc, false, hook);
    }

    private static boolean isHook(Map<?, ?> metadata) {
        return metadata.get("annotations") instanceof Map<?, ?> a && (a.get(Hook.ARGOCD_HOOK) != null || a.get(Hook.HELM_HOOK) != null);
    }

    static final String ARGOCD_WAVE = "argocd.argoproj.io/sync-wave";

    private static int wave(Map<?, ?> annotations, SourceLocation at, List<Diagnostic> out) {
        Object w = annotations.get(Manifest.ANNOTATION_WAVE);
        // Argo CD's sync wave orders the apply the same way, when Windlass's own wave is not given.
        String key = w == null && annotations.get(ARGOCD_WAVE) != null ? ARGOCD_WAVE : Manifest.ANNOTATION_WAVE;
        if (w == null) w = annotations.get(ARGOCD_WAVE);
        if (w == null) return 0;
        try {
            return Integer.parseInt(String.valueOf(w).trim());
        } catch (NumberFormatException e) {
            out.add(Diagnostic.error(at, "annotation " + key + " is " + Excerpt.quoted(w) + "; it must be a whole number such as \"-1\" or \"2\""));
            return Integer.MIN_VALUE;
        }
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> withNamespace(Map<String, Object> v, String namespace) {
        Map<String, Object> copy = new LinkedHashMap<>(v);
        Map<String, Object> meta = new LinkedHashMap<>((Map<String, Object>) v.get("metadata"));
        if (namespace == null) meta.remove("namespace");
        else meta.put("namespace", namespace);
        copy.put("metadata", Collections.unmodifiableMap(meta));
        return Collections.unmodifiableMap(copy);
    }

    /** The Namespace Windlass creates for an application when absent; created, never tracked or pruned. */
    static Manifest implicitNamespace(String namespace, SourceLocation at) {
        Map<String, Object> body = Map.of("apiVersion", "v1", "kind", "Namespace", "metadata", Map.of("name", namespace));
        return new Manifest(new ObjectRef("", "Namespace", "", namespace), "v1", body, at, ContentHash.of(body), 0,
                ApplyMode.ONCE, GcPolicy.NEVER, true);
    }
}
