package dev.windlass.policy.diff;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

/**
 * Every field two versions of one object differ in, both ways: what the API server's answer to a dry run changes on
 * the live object. The server's bookkeeping (resource version, managed fields, generation) is not a change.
 */
public final class TreeChanges {
    private static final Set<String> BOOKKEEPING = Set.of("resourceVersion", "managedFields", "generation");

    private TreeChanges() {}

    /** Paths like {@code spec.template.spec.containers[0].image}, in key order. */
    public static List<String> between(Map<String, Object> before, Map<String, Object> after) {
        List<String> out = new ArrayList<>();
        compare("", before, after, out);
        return out;
    }

    private static void compare(String path, Object before, Object after, List<String> out) {
        if (before instanceof Map<?, ?> b && after instanceof Map<?, ?> a) {
            Set<String> keys = new TreeSet<>();
            b.keySet().forEach(k -> keys.add(String.valueOf(k)));
            a.keySet().forEach(k -> keys.add(String.valueOf(k)));
            for (String key : keys) {
                if (path.equals("metadata") && BOOKKEEPING.contains(key)) continue;
                compare(path.isEmpty() ? key : path + "." + key, b.get(key), a.get(key), out);
            }
        } else if (before instanceof List<?> b && after instanceof List<?> a && b.size() == a.size()) {
            for (int i = 0; i < b.size(); i++) compare(path + "[" + i + "]", b.get(i), a.get(i), out);
        } else if (!sameValue(before, after)) {
            out.add(path);
        }
    }

    private static boolean sameValue(Object a, Object b) {
        if (a instanceof Number x && b instanceof Number y) {
            return new java.math.BigDecimal(x.toString()).compareTo(new java.math.BigDecimal(y.toString())) == 0;
        }
        return Objects.equals(a, b);
    }
}
