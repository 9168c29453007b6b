package dev.windlass.policy.diff;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Where one field is in an object tree, step by step: a map key, a list item by index, a list item by the values of
 * its key fields ({@code containers} item with {@code name: web}), or a list item by its value (a set of strings).
 * Written as an RFC 6901 JSON pointer, or read from the field sets the API server keeps in {@code managedFields}.
 */
record FieldLocation(List<Step> steps) {

    sealed interface Step permits Key, Index, ItemWithKeys, ItemEqualTo {}

    /** A map key; or, inside a list, an index when the key is a number. */
    record Key(String name) implements Step {}

    record Index(int index) implements Step {}

    record ItemWithKeys(Map<String, Object> keys) implements Step {}

    record ItemEqualTo(Object value) implements Step {}

    FieldLocation {
        steps = List.copyOf(steps);
    }

    /** {@code /spec/template/spec/containers/0/image}; {@code ~1} is a slash and {@code ~0} a tilde. Null when malformed. */
    static FieldLocation ofPointer(String pointer) {
        if (pointer == null || !pointer.startsWith("/")) return null;
        List<Step> steps = new ArrayList<>();
        for (String token : pointer.substring(1).split("/", -1)) {
            steps.add(new Key(token.replace("~1", "/").replace("~0", "~")));
        }
        return new FieldLocation(steps);
    }

    FieldLocation then(Step step) {
        List<Step> more = new ArrayList<>(steps);
        more.add(step);
        return new FieldLocation(more);
    }

    /** The value here in {@code tree}, or null when the tree has nothing here. */
    Object in(Object tree) {
        Object at = tree;
        for (Step step : steps) {
            at = child(at, step);
            if (at == null) return null;
        }
        return at;
    }

    /** A copy of {@code tree} without the field here (the tree itself when it has no such field). */
    Map<String, Object> removedFrom(Map<String, Object> tree) {
        if (steps.isEmpty() || in(tree) == null) return tree;
        return cast(edit(tree, 0, null, true));
    }

    /**
     * A copy of {@code tree} with {@code value} here. Only an existing parent is written into: a field Git does not
     * set at all is not added (the parent would not be Windlass's to send).
     */
    Map<String, Object> withValue(Map<String, Object> tree, Object value) {
        if (steps.isEmpty()) return tree;
        FieldLocation parent = new FieldLocation(steps.subList(0, steps.size() - 1));
        Object holder = parent.in(tree);
        if (!(holder instanceof Map) && !(holder instanceof List)) return tree;
        if (holder instanceof List<?> && child(holder, steps.get(steps.size() - 1)) == null) return tree;
        if (Objects.equals(in(tree), value)) return tree;
        return cast(edit(tree, 0, value, false));
    }

    private Object edit(Object node, int i, Object value, boolean remove) {
        Step step = steps.get(i);
        boolean last = i == steps.size() - 1;
        if (node instanceof Map<?, ?> map && step instanceof Key key) {
            Map<String, Object> copy = new LinkedHashMap<>(cast(map));
            if (last) {
                if (remove) copy.remove(key.name());
                else copy.put(key.name(), value);
            } else {
                copy.put(key.name(), edit(copy.get(key.name()), i + 1, value, remove));
            }
            return Collections.unmodifiableMap(copy);
        }
        if (node instanceof List<?> list) {
            int index = indexIn(list, step);
            List<Object> copy = new ArrayList<>(list);
            if (last) {
                if (remove) copy.remove(index);
                else copy.set(index, value);
            } else {
                copy.set(index, edit(copy.get(index), i + 1, value, remove));
            }
            return Collections.unmodifiableList(copy);
        }
        throw new IllegalStateException("no field at step " + i + " of " + this);
    }

    private static Object child(Object node, Step step) {
        if (node instanceof Map<?, ?> map) return step instanceof Key key ? map.get(key.name()) : null;
        if (node instanceof List<?> list) {
            int index = indexIn(list, step);
            return index < 0 ? null : list.get(index);
        }
        return null;
    }

    private static int indexIn(List<?> list, Step step) {
        if (step instanceof Key key) {
            if (!key.name().matches("0|[1-9][0-9]{0,8}")) return -1;
            int index = Integer.parseInt(key.name());
            return index < list.size() ? index : -1;
        }
        if (step instanceof Index index) return index.index() < list.size() ? index.index() : -1;
        for (int i = 0; i < list.size(); i++) {
            Object item = list.get(i);
            boolean found = step instanceof ItemWithKeys keyed
                    ? item instanceof Map<?, ?> m && keyed.keys().entrySet().stream().allMatch(k -> sameScalar(k.getValue(), m.get(k.getKey())))
                    : sameScalar(((ItemEqualTo) step).value(), item);
            if (found) return i;
        }
        return -1;
    }

    /** Key values come from JSON text, items from YAML: {@code 80} and {@code 80L} are the same port. */
    private static boolean sameScalar(Object a, Object b) {
        if (a instanceof Number x && b instanceof Number y) return new java.math.BigDecimal(x.toString()).compareTo(new java.math.BigDecimal(y.toString())) == 0;
        return Objects.equals(a, b);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> cast(Object map) { return (Map<String, Object>) map; }
}
