package dev.windlass.applier.write;

import dev.windlass.applier.kube.JsonTree;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The RFC 7386 JSON merge patch that takes a live object to the desired one, computed three ways: fields
 * Windlass sets are written when the live value differs, fields it applied last time but Git no longer has are
 * deleted ({@code null}), and fields nobody in Git ever set (added by people or controllers) are left alone.
 * Merge patches replace lists whole, so a list is sent when Git changed it since last time, or when the live
 * list no longer holds what Git says (extra fields in list items, like server defaults, do not count).
 */
final class ThreeWayMergePatch {

    private ThreeWayMergePatch() {}

    /** An empty result means the live object already is what Git asks for. */
    static Map<String, Object> between(Map<String, Object> lastApplied, Map<String, Object> desired,
                                       Map<String, Object> live) {
        Map<String, Object> patch = new LinkedHashMap<>();
        for (var e : desired.entrySet()) {
            String key = e.getKey();
            Object want = e.getValue();
            Object was = lastApplied.get(key);
            Object have = live.get(key);
            if (want instanceof Map<?, ?> && (have == null || have instanceof Map<?, ?>)) {
                // An absent object and an empty one are the same to the server; recurse instead of sending it whole.
                Map<String, Object> sub = between(mapOrEmpty(was), asMap(want), mapOrEmpty(have));
                if (!sub.isEmpty()) patch.put(key, sub);
            } else if (want instanceof List<?>) {
                if (!JsonTree.equal(was, want) || !JsonTree.contains(have, want)) patch.put(key, want);
            } else if (!live.containsKey(key) || !JsonTree.equal(want, have)) {
                patch.put(key, want);
            }
        }
        for (String key : lastApplied.keySet()) {
            if (!desired.containsKey(key) && live.get(key) != null) patch.put(key, null);
        }
        return patch;
    }

    /** The changed field paths for a message, {@code spec.replicas} or {@code metadata.labels.tier (removed)}. */
    static List<String> paths(Map<String, Object> patch) {
        List<String> out = new ArrayList<>();
        collect("", patch, out);
        return ChangedFields.withoutMarks(out);
    }

    private static void collect(String prefix, Map<String, Object> patch, List<String> out) {
        for (var e : patch.entrySet()) {
            String path = prefix.isEmpty() ? e.getKey() : prefix + "." + e.getKey();
            if (e.getValue() instanceof Map<?, ?> m && !m.isEmpty()) collect(path, asMap(m), out);
            else out.add(e.getValue() == null ? path + " (removed)" : path);
        }
    }

    private static Map<String, Object> mapOrEmpty(Object value) {
        return value instanceof Map<?, ?> m ? asMap(m) : Map.of();
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> asMap(Object value) { return (Map<String, Object>) value; }
}
