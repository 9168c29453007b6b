package dev.windlass.policy.model;

import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.Collections;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Set;
import java.util.function.BiConsumer;
import java.util.function.Function;

/**
 * An unmodifiable JSON object of a few keys, as its keys and values side by side in one array, in the order they came.
 * Most objects in a Kubernetes body or a manifest have a handful of keys, and the engine holds hundreds of thousands
 * of them (every watched object's body, every manifest of the repo): a {@code LinkedHashMap} behind an unmodifiable
 * view costs about 250 bytes for four keys, this about 70. Lookups scan the array, which for a few keys is as quick as
 * hashing; an object with more keys than {@link #SMALL} stays a {@code LinkedHashMap}. Values may be null (JSON's
 * null), which {@code Map.copyOf} and the common immutable maps refuse; and it prints itself as a {@code Map} does.
 */
public final class FrozenMap extends AbstractMap<String, Object> {
    /** Up to this many keys an object is held in one array. */
    static final int SMALL = 8;

    /** Key at even indexes, its value after it. */
    private final Object[] keysAndValues;
    private transient Set<Map.Entry<String, Object>> entries;

    private FrozenMap(Object[] keysAndValues) {
        this.keysAndValues = keysAndValues;
    }

    /**
     * An unmodifiable copy of {@code source} in its order, keys made strings (a later key equal as a string replaces an
     * earlier one, as a {@code LinkedHashMap} would) and each value passed through {@code value}.
     */
    public static Map<String, Object> copyOf(Map<?, ?> source, Function<Object, Object> value) {
        if (source.size() > SMALL) {
            Map<String, Object> out = new LinkedHashMap<>();
            source.forEach((k, v) -> out.put(String.valueOf(k), value.apply(v)));
            return Collections.unmodifiableMap(out);
        }
        Object[] kv = new Object[source.size() * 2];
        int n = 0;
        for (Map.Entry<?, ?> e : source.entrySet()) {
            String key = String.valueOf(e.getKey());
            int at = indexOf(kv, n, key);
            if (at < 0) {
                at = n;
                kv[2 * n++] = key;
            }
            kv[2 * at + 1] = value.apply(e.getValue());
        }
        return new FrozenMap(n * 2 == kv.length ? kv : java.util.Arrays.copyOf(kv, n * 2));
    }

    private static int indexOf(Object[] kv, int n, Object key) {
        for (int i = 0; i < n; i++) {
            if (kv[2 * i].equals(key)) return i;
        }
        return -1;
    }

    @Override public int size() { return keysAndValues.length / 2; }

    @Override public boolean isEmpty() { return keysAndValues.length == 0; }

    @Override public boolean containsKey(Object key) { return key != null && indexOf(keysAndValues, size(), key) >= 0; }

    @Override public Object get(Object key) {
        int at = key == null ? -1 : indexOf(keysAndValues, size(), key);
        return at < 0 ? null : keysAndValues[2 * at + 1];
    }

    @Override public Object getOrDefault(Object key, Object otherwise) {
        int at = key == null ? -1 : indexOf(keysAndValues, size(), key);
        return at < 0 ? otherwise : keysAndValues[2 * at + 1];
    }

    @Override public void forEach(BiConsumer<? super String, ? super Object> action) {
        for (int i = 0; i < keysAndValues.length; i += 2) action.accept((String) keysAndValues[i], keysAndValues[i + 1]);
    }

    @Override public Set<Map.Entry<String, Object>> entrySet() {
        Set<Map.Entry<String, Object>> e = entries;
        if (e == null) entries = e = new Entries();
        return e;
    }

    /** The entries in order; neither the set, its iterator nor an entry can change the map. */
    private final class Entries extends AbstractSet<Map.Entry<String, Object>> {
        @Override public int size() { return FrozenMap.this.size(); }

        @Override public Iterator<Map.Entry<String, Object>> iterator() {
            return new Iterator<>() {
                private int next;

                @Override public boolean hasNext() { return next < keysAndValues.length; }

                @Override public Map.Entry<String, Object> next() {
                    if (next >= keysAndValues.length) throw new NoSuchElementException();
                    Map.Entry<String, Object> e = new SimpleImmutableEntry<>((String) keysAndValues[next], keysAndValues[next + 1]);
                    next += 2;
                    return e;
                }
            };
        }
    }
}
