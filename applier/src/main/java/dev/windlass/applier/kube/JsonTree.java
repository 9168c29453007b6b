package dev.windlass.applier.kube;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.windlass.policy.model.FrozenMap;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Objects as JSON-like trees of maps, lists and scalars, the form manifests arrive in from Git and the form
 * live objects are compared in. Numbers compare by value: YAML and JSON parsers disagree on Integer vs Long.
 */
public final class JsonTree {

    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final TypeReference<LinkedHashMap<String, Object>> OBJECT = new TypeReference<>() {};

    private JsonTree() {}

    /** A deep, mutable copy; the input is never touched. */
    @SuppressWarnings("unchecked")
    public static <T> T copy(T tree) {
        if (tree instanceof Map<?, ?> m) {
            Map<String, Object> out = new LinkedHashMap<>();
            m.forEach((k, v) -> out.put(String.valueOf(k), copy(v)));
            return (T) out;
        }
        if (tree instanceof List<?> l) {
            List<Object> out = new ArrayList<>(l.size());
            l.forEach(v -> out.add(copy(v)));
            return (T) out;
        }
        return tree;
    }

    /**
     * A deep, unmodifiable fresh copy (values may hold nulls, which {@code Map.copyOf} refuses); objects of a few keys
     * held compactly ({@link FrozenMap}), as every watched object's body is kept this way.
     */
    @SuppressWarnings("unchecked")
    public static <T> T frozen(T tree) {
        if (tree instanceof Map<?, ?> m) return (T) FrozenMap.copyOf(m, JsonTree::frozen);
        if (tree instanceof List<?> l) {
            List<Object> out = new ArrayList<>(l.size());
            l.forEach(v -> out.add(frozen(v)));
            return (T) Collections.unmodifiableList(out);
        }
        return tree;
    }

    /** Deep equality, with numbers equal by value whatever their Java type. */
    public static boolean equal(Object a, Object b) {
        if (a instanceof Number x && b instanceof Number y) return decimal(x).compareTo(decimal(y)) == 0;
        if (a instanceof Map<?, ?> x && b instanceof Map<?, ?> y) {
            if (x.size() != y.size()) return false;
            for (var e : x.entrySet()) {
                if (!y.containsKey(e.getKey()) || !equal(e.getValue(), y.get(e.getKey()))) return false;
            }
            return true;
        }
        if (a instanceof List<?> x && b instanceof List<?> y) {
            if (x.size() != y.size()) return false;
            for (int i = 0; i < x.size(); i++) {
                if (!equal(x.get(i), y.get(i))) return false;
            }
            return true;
        }
        return a == null ? b == null : a.equals(b);
    }

    /**
     * Whether {@code have} holds everything in {@code want}: maps may carry extra keys (defaults the server
     * filled in, fields others own), lists must have the same length with each element contained.
     */
    public static boolean contains(Object have, Object want) {
        if (want instanceof Map<?, ?> w) {
            if (!(have instanceof Map<?, ?> h)) return false;
            for (var e : w.entrySet()) {
                if (!h.containsKey(e.getKey()) || !contains(h.get(e.getKey()), e.getValue())) return false;
            }
            return true;
        }
        if (want instanceof List<?> w) {
            if (!(have instanceof List<?> h) || h.size() != w.size()) return false;
            for (int i = 0; i < w.size(); i++) {
                if (!contains(h.get(i), w.get(i))) return false;
            }
            return true;
        }
        return equal(have, want);
    }

    public static String toJson(Object tree) {
        try {
            return MAPPER.writeValueAsString(tree);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("not a JSON tree: " + e.getOriginalMessage(), e);
        }
    }

    /** Parses a JSON object; throws {@link IllegalArgumentException} when the text is not one. */
    public static Map<String, Object> parseObject(String json) {
        try {
            return MAPPER.readValue(json, OBJECT);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("not a JSON object: " + e.getOriginalMessage(), e);
        }
    }

    @SuppressWarnings("unchecked")
    public static Map<String, Object> childMap(Map<String, Object> parent, String key) {
        return parent.get(key) instanceof Map<?, ?> m ? (Map<String, Object>) m : null;
    }

    private static BigDecimal decimal(Number n) {
        return n instanceof BigDecimal d ? d : new BigDecimal(n.toString());
    }
}
