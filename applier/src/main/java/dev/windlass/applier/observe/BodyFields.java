package dev.windlass.applier.observe;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Reading fields of an object body that may be missing at any level, as status fields often are. */
final class BodyFields {

    private BodyFields() {}

    /** The map at {@code path}, or an empty map. */
    @SuppressWarnings("unchecked")
    static Map<String, Object> map(Map<String, Object> tree, String... path) {
        Object at = at(tree, path);
        return at instanceof Map<?, ?> m ? (Map<String, Object>) m : Map.of();
    }

    /** The maps in the list at {@code path}; other elements are ignored. */
    @SuppressWarnings("unchecked")
    static List<Map<String, Object>> maps(Map<String, Object> tree, String... path) {
        Object at = at(tree, path);
        if (!(at instanceof List<?> l)) return List.of();
        return l.stream().filter(Map.class::isInstance).map(m -> (Map<String, Object>) m).toList();
    }

    static String string(Map<String, Object> tree, String... path) {
        Object at = at(tree, path);
        return at == null ? "" : String.valueOf(at);
    }

    /** The number at {@code path}, or {@code absent}: status counters are omitted when zero. */
    static long number(Map<String, Object> tree, long absent, String... path) {
        Object at = at(tree, path);
        if (at instanceof Number n) return n.longValue();
        if (at instanceof String s) {
            try {
                return Long.parseLong(s);
            } catch (NumberFormatException e) {
                return absent;
            }
        }
        return absent;
    }

    static boolean has(Map<String, Object> tree, String... path) { return at(tree, path) != null; }

    static boolean isTrue(Map<String, Object> tree, String... path) {
        Object at = at(tree, path);
        return Boolean.TRUE.equals(at) || "true".equals(at);
    }

    /** The status condition of {@code type}, if the object reports one. */
    static Optional<Map<String, Object>> condition(Map<String, Object> body, String type) {
        return maps(body, "status", "conditions").stream().filter(c -> type.equals(c.get("type"))).findFirst();
    }

    static boolean conditionIs(Map<String, Object> body, String type, String status) {
        return condition(body, type).map(c -> status.equals(c.get("status"))).orElse(false);
    }

    private static Object at(Map<String, Object> tree, String... path) {
        Object at = tree;
        for (String key : path) {
            if (!(at instanceof Map<?, ?> m)) return null;
            at = m.get(key);
        }
        return at;
    }
}
