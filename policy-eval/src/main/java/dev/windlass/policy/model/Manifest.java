package dev.windlass.policy.model;

import java.util.Map;

/**
 * One desired Kubernetes object as found in Git, with the namespace already defaulted.
 *
 * @param body     the object as a JSON-like tree (maps, lists, strings, numbers, booleans), unmodifiable
 * @param hash     content hash of {@code body}; equal hashes mean nothing to re-send
 * @param implicit true for objects Windlass adds itself (the application's namespace), which are
 *                 created if absent but never tracked or pruned
 * @param hook     null, or when this object runs as a resource hook instead of being applied with the others
 */
public record Manifest(ObjectRef ref, String apiVersion, Map<String, Object> body, SourceLocation location,
                       String hash, int wave, ApplyMode applyMode, GcPolicy gcPolicy, boolean implicit, Hook hook) {

    /** An object that is no hook. */
    public Manifest(ObjectRef ref, String apiVersion, Map<String, Object> body, SourceLocation location,
                    String hash, int wave, ApplyMode applyMode, GcPolicy gcPolicy, boolean implicit) {
        this(ref, apiVersion, body, location, hash, wave, applyMode, gcPolicy, implicit, null);
    }

    /** Whether this object is a resource hook ({@link #hook()} says when it runs), run in a sync instead of applied. */
    public boolean isHook() { return hook != null; }

    public static final String ANNOTATION_WAVE = "windlass.dev/wave";
    public static final String ANNOTATION_APPLY = "windlass.dev/apply";
    public static final String ANNOTATION_GC = "windlass.dev/gc";

    public enum ApplyMode { ALWAYS, ONCE }

    /**
     * When an object that left Git (or whose application left) is deleted from the cluster; {@link #word()} is how the
     * {@code windlass.dev/gc} annotation and the inventory on the status branch spell it.
     */
    public enum GcPolicy {
        ON_APP_UPDATE("OnAppUpdate"), ON_APP_DELETE("OnAppDelete"), NEVER("Never");

        private final String word;

        GcPolicy(String word) { this.word = word; }

        public String word() { return word; }

        /** The policy written as {@code word} (OnAppUpdate, OnAppDelete, Never), or null for any other word. */
        public static GcPolicy ofWord(String word) {
            for (GcPolicy p : values()) if (p.word.equals(word)) return p;
            return null;
        }
    }

    /**
     * The same manifest sending {@code sentBody} instead of Git's body, with Git's hash kept: the hash says which Git
     * content is live, and an update that keeps another controller's fields (ignored differences) still applies that
     * content.
     */
    public Manifest sending(Map<String, Object> sentBody) {
        if (sentBody == body) return this;
        return new Manifest(ref, apiVersion, sentBody, location, hash, wave, applyMode, gcPolicy, implicit, hook);
    }

    /** The same object with {@code labels} added to its metadata, and its hash recomputed. */
    public Manifest withLabels(Map<String, String> labels) {
        if (labels.isEmpty()) return this;
        Map<String, Object> copy = new java.util.LinkedHashMap<>(body);
        Map<String, Object> meta = body.get("metadata") instanceof Map<?, ?> m ? new java.util.LinkedHashMap<>(cast(m)) : new java.util.LinkedHashMap<>();
        Map<String, Object> merged = meta.get("labels") instanceof Map<?, ?> l ? new java.util.TreeMap<>(cast(l)) : new java.util.TreeMap<>();
        merged.putAll(labels);
        meta.put("labels", java.util.Collections.unmodifiableMap(merged));
        copy.put("metadata", java.util.Collections.unmodifiableMap(meta));
        Map<String, Object> frozen = java.util.Collections.unmodifiableMap(copy);
        return new Manifest(ref, apiVersion, frozen, location, dev.windlass.policy.diff.ContentHash.of(frozen), wave, applyMode, gcPolicy, implicit, hook);
    }

    /**
     * The same object as a cluster-scoped one: no namespace in its reference or its metadata, its hash recomputed. For a
     * kind that another application's CustomResourceDefinition says is cluster-scoped, read before that was known.
     */
    public Manifest clusterScoped() {
        if (ref.namespace().isEmpty()) return this;
        Map<String, Object> copy = new java.util.LinkedHashMap<>(body);
        if (body.get("metadata") instanceof Map<?, ?> m) {
            Map<String, Object> meta = new java.util.LinkedHashMap<>(cast(m));
            meta.remove("namespace");
            copy.put("metadata", java.util.Collections.unmodifiableMap(meta));
        }
        Map<String, Object> frozen = java.util.Collections.unmodifiableMap(copy);
        return new Manifest(new ObjectRef(ref.group(), ref.kind(), "", ref.name()), apiVersion, frozen, location,
                dev.windlass.policy.diff.ContentHash.of(frozen), wave, applyMode, gcPolicy, implicit);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> cast(Map<?, ?> m) { return (Map<String, Object>) m; }
}
