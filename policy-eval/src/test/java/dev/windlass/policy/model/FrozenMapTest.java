package dev.windlass.policy.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.Size;
import net.jqwik.api.constraints.StringLength;
import org.junit.jupiter.api.Test;

/** A frozen JSON object reads, compares and prints exactly as the ordered map it was copied from, and cannot change. */
class FrozenMapTest {

    @Property
    void readsComparesAndPrintsAsTheMapItCopies(@ForAll @Size(max = 12) List<@StringLength(max = 3) String> keys,
                                                @ForAll @Size(max = 12) List<Integer> values) {
        Map<String, Object> source = new LinkedHashMap<>();
        for (int i = 0; i < keys.size(); i++) source.put(keys.get(i), i < values.size() ? values.get(i) : null);
        Map<String, Object> frozen = FrozenMap.copyOf(source, Function.identity());

        assertEquals(source, frozen);
        assertEquals(frozen, source);
        assertEquals(source.hashCode(), frozen.hashCode());
        assertEquals(source.toString(), frozen.toString());
        assertEquals(new ArrayList<>(source.keySet()), new ArrayList<>(frozen.keySet()), "the same order");
        assertEquals(new ArrayList<>(source.values()), new ArrayList<>(frozen.values()));
        for (String k : keys) {
            assertTrue(frozen.containsKey(k));
            assertEquals(source.get(k), frozen.get(k));
        }
        assertFalse(frozen.containsKey("longer than any key"));
        assertNull(frozen.get("longer than any key"));
        assertEquals("x", frozen.getOrDefault("longer than any key", "x"));
        List<String> seen = new ArrayList<>();
        frozen.forEach((k, v) -> seen.add(k + "=" + v));
        List<String> expected = new ArrayList<>();
        source.forEach((k, v) -> expected.add(k + "=" + v));
        assertEquals(expected, seen);
    }

    @Test
    void aNullValueIsHeldAndKeysEqualAsStringsAreOne() {
        Map<Object, Object> source = new LinkedHashMap<>();
        source.put("creationTimestamp", null);
        source.put(1, "one");
        source.put("1", "uno");
        Map<String, Object> frozen = FrozenMap.copyOf(source, Function.identity());
        assertEquals(2, frozen.size());
        assertTrue(frozen.containsKey("creationTimestamp"));
        assertNull(frozen.get("creationTimestamp"));
        assertEquals("uno", frozen.get("1"), "the later key wins, as in a LinkedHashMap");
        assertEquals("{creationTimestamp=null, 1=uno}", frozen.toString());
    }

    @Test
    void nothingChangesIt() {
        for (int size : new int[] {2, FrozenMap.SMALL + 3}) {
            Map<String, Object> source = new LinkedHashMap<>();
            for (int i = 0; i < size; i++) source.put("k" + i, i);
            Map<String, Object> frozen = FrozenMap.copyOf(source, Function.identity());
            assertThrows(UnsupportedOperationException.class, () -> frozen.put("k0", 9));
            assertThrows(UnsupportedOperationException.class, () -> frozen.remove("k0"));
            assertThrows(UnsupportedOperationException.class, () -> frozen.putAll(Map.of("z", 1)));
            assertThrows(UnsupportedOperationException.class, frozen::clear);
            assertThrows(UnsupportedOperationException.class, () -> frozen.entrySet().iterator().next().setValue(9));
            assertThrows(UnsupportedOperationException.class, () -> {
                var it = frozen.keySet().iterator();
                it.next();
                it.remove();
            });
            assertThrows(UnsupportedOperationException.class, () -> frozen.values().clear());
            assertEquals(source, frozen, "still as copied");
            source.put("k0", "changed after the copy");
            assertEquals(0, frozen.get("k0"), "a copy, not a view");
        }
    }
}
