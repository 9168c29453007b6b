package dev.windlass.sandbox;

import io.fabric8.mockwebserver.crud.Attribute;
import io.fabric8.mockwebserver.crud.AttributeSet;

import java.util.AbstractMap;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The CRUD store's map of objects (each object's attributes to its JSON), which also keeps the objects by their
 * {@code name} attribute. The embedded store asks this map for nothing but {@code put}, {@code remove}, {@code get},
 * {@code clear} and iteration, all of which keep the index true; iteration is read-only. Insertion order is kept,
 * as the store's own map keeps it: a LIST answers in it.
 */
final class NamedIndex extends AbstractMap<AttributeSet, String> {

    private static final String NAME = "name";

    private final Map<AttributeSet, String> objects = new LinkedHashMap<>();
    private final Map<Attribute, Set<AttributeSet>> byName = new HashMap<>();

    /**
     * The stored objects whose {@code name} attribute equals {@code name}, in insertion order: the only ones a query
     * holding that attribute can match (an attribute that a query requires is matched by equality).
     */
    List<Map.Entry<AttributeSet, String>> named(Attribute name) {
        Set<AttributeSet> keys = byName.get(name);
        if (keys == null) return List.of();
        return keys.stream().map(k -> Map.entry(k, objects.get(k))).toList();
    }

    @Override public String put(AttributeSet key, String value) {
        String before = objects.put(key, value);
        Attribute name = key.getAttribute(NAME);
        if (name != null) byName.computeIfAbsent(name, n -> new LinkedHashSet<>()).add(key);
        return before;
    }

    @Override public String remove(Object key) {
        if (!(key instanceof AttributeSet set) || !objects.containsKey(set)) return null;
        String before = objects.remove(set);
        Attribute name = set.getAttribute(NAME);
        if (name != null) {
            Set<AttributeSet> keys = byName.get(name);
            if (keys != null && keys.remove(set) && keys.isEmpty()) byName.remove(name);
        }
        return before;
    }

    @Override public String get(Object key) {
        return objects.get(key);
    }

    @Override public boolean containsKey(Object key) {
        return objects.containsKey(key);
    }

    @Override public int size() {
        return objects.size();
    }

    @Override public void clear() {
        objects.clear();
        byName.clear();
    }

    @Override public Set<Map.Entry<AttributeSet, String>> entrySet() {
        return Collections.unmodifiableMap(objects).entrySet();
    }
}
