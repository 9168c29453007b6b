package dev.windlass.applier.write;

import dev.windlass.applier.kube.JsonTree;
import dev.windlass.applier.kube.OwnershipMarks;
import dev.windlass.policy.model.Application.ApplyStrategy;
import dev.windlass.policy.model.Manifest;
import dev.windlass.policy.plan.Action;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The object as Windlass sends it: the body from Git, cleaned of what only the server may set, plus the
 * ownership marks. Built from a copy; the manifest's own (unmodifiable) body is never touched. Client-side apply also
 * keeps the object as applied in {@link OwnershipMarks#LAST_APPLIED}, which its next three-way merge reads; server-side
 * apply never writes it (the server tracks what Windlass owns, and the copy would double the object's size: a large
 * CustomResourceDefinition would pass the server's limit on annotations).
 *
 * @param body     what is sent, marks included
 * @param fromGit  the cleaned Git body without marks, which becomes the next "last applied" state
 */
record PreparedObject(Map<String, Object> body, Map<String, Object> fromGit) {

    /** The API server's limit on the total size of an object's annotations, keys and values, in bytes. */
    static final int ANNOTATIONS_LIMIT = 256 * 1024;

    /** Metadata the API server owns; sending a stale copy from Git would at best be ignored, at worst conflict. */
    private static final List<String> SERVER_METADATA = List.of("uid", "resourceVersion", "generation",
            "creationTimestamp", "deletionTimestamp", "deletionGracePeriodSeconds", "managedFields", "selfLink");

    static PreparedObject of(Action action) {
        return of(action.app(), action.desired(), action.strategy() == ApplyStrategy.ClientSide);
    }

    /** @param lastApplied keep the object as applied in an annotation, for client-side apply's next merge */
    static PreparedObject of(String app, Manifest manifest, boolean lastApplied) {
        Map<String, Object> git = withoutNulls(JsonTree.copy(manifest.body()));
        git.remove("status");  // a subresource: patching it through the object is ignored, and would never converge
        Map<String, Object> meta = child(git, "metadata");
        SERVER_METADATA.forEach(meta::remove);
        if (manifest.ref().namespaced()) meta.putIfAbsent("namespace", manifest.ref().namespace());
        Map<String, Object> gitAnnotations = JsonTree.childMap(meta, "annotations");
        if (gitAnnotations != null) {
            gitAnnotations.remove(OwnershipMarks.LAST_APPLIED);
            if (gitAnnotations.isEmpty()) meta.remove("annotations");
        }

        Map<String, Object> body = JsonTree.copy(git);
        Map<String, Object> labels = child(child(body, "metadata"), "labels");
        labels.put(OwnershipMarks.MANAGED_BY, OwnershipMarks.MANAGED_BY_VALUE);
        labels.put(OwnershipMarks.APP, app);
        Map<String, Object> annotations = child(child(body, "metadata"), "annotations");
        if (lastApplied) annotations.put(OwnershipMarks.LAST_APPLIED, JsonTree.toJson(git));
        annotations.put(OwnershipMarks.APPLIED_HASH, manifest.hash());
        return new PreparedObject(body, git);
    }

    /** The bytes the API server counts against {@link #ANNOTATIONS_LIMIT}: every annotation's key and value. */
    int annotationBytes() {
        Map<String, Object> annotations = JsonTree.childMap(JsonTree.childMap(body, "metadata"), "annotations");
        if (annotations == null) return 0;
        int bytes = 0;
        for (var e : annotations.entrySet()) {
            bytes += e.getKey().getBytes(java.nio.charset.StandardCharsets.UTF_8).length;
            bytes += String.valueOf(e.getValue()).getBytes(java.nio.charset.StandardCharsets.UTF_8).length;
        }
        return bytes;
    }

    /** What a live object says was last applied from Git; empty when it has no (readable) annotation. */
    static Map<String, Object> lastAppliedOn(Map<String, Object> live) {
        Map<String, Object> meta = JsonTree.childMap(live, "metadata");
        Map<String, Object> annotations = meta == null ? null : JsonTree.childMap(meta, "annotations");
        Object json = annotations == null ? null : annotations.get(OwnershipMarks.LAST_APPLIED);
        if (!(json instanceof String s)) return Map.of();
        try {
            return JsonTree.parseObject(s);
        } catch (IllegalArgumentException e) {
            // Edited by hand into garbage: fall back to a two-way patch, which only fails to remove fields.
            return Map.of();
        }
    }

    static boolean managedByWindlass(Map<String, Object> live) {
        Map<String, Object> meta = JsonTree.childMap(live, "metadata");
        Map<String, Object> labels = meta == null ? null : JsonTree.childMap(meta, "labels");
        return labels != null && OwnershipMarks.MANAGED_BY_VALUE.equals(labels.get(OwnershipMarks.MANAGED_BY));
    }

    private static Map<String, Object> child(Map<String, Object> parent, String key) {
        Map<String, Object> existing = JsonTree.childMap(parent, key);
        if (existing != null) return existing;
        Map<String, Object> created = new LinkedHashMap<>();
        parent.put(key, created);
        return created;
    }

    /** In a manifest, {@code field: null} means the field is not set; in a merge patch it would mean "delete". */
    @SuppressWarnings("unchecked")
    private static Map<String, Object> withoutNulls(Map<String, Object> tree) {
        tree.values().removeIf(v -> v == null);
        for (Object v : tree.values()) {
            if (v instanceof Map<?, ?> m) withoutNulls((Map<String, Object>) m);
        }
        return tree;
    }
}
