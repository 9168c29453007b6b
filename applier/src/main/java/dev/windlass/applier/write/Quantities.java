package dev.windlass.applier.write;

import io.fabric8.kubernetes.api.model.Quantity;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Resource quantities as the server spells them. The API server stores {@code cpu: 2000m} as {@code "2"} and
 * {@code 0.5} as {@code 500m}; compared as text, such a field would differ forever and be re-sent on every pass.
 */
final class Quantities {

    /** Keys whose values are maps of quantities (container resources, quotas, limit ranges, PVC requests). */
    private static final Set<String> QUANTITY_MAPS = Set.of("limits", "requests", "hard", "min", "max", "default",
            "defaultRequest", "maxLimitRequestRatio", "capacity");
    /** Keys whose value is one quantity. */
    private static final Set<String> QUANTITY_FIELDS = Set.of("sizeLimit");

    private Quantities() {}

    /**
     * A copy of {@code desired} where each quantity that equals the live one in value takes the live spelling;
     * everything else is left as it is.
     */
    static Map<String, Object> spelledAsLive(Map<String, Object> desired, Map<String, Object> live) {
        return alignMap(desired, live, false);
    }

    @SuppressWarnings("unchecked")
    private static Object align(Object desired, Object live, boolean quantity) {
        if (desired instanceof Map<?, ?> d && live instanceof Map<?, ?> l) {
            return alignMap((Map<String, Object>) d, (Map<String, Object>) l, quantity);
        }
        if (desired instanceof List<?> d && live instanceof List<?> l && d.size() == l.size()) {
            List<Object> out = new ArrayList<>(d.size());
            for (int i = 0; i < d.size(); i++) out.add(align(d.get(i), l.get(i), false));
            return out;
        }
        if (quantity && sameAmount(desired, live)) return live;
        return desired;
    }

    /** {@code quantities}: the values of this map are quantities (it sits under one of {@link #QUANTITY_MAPS}). */
    @SuppressWarnings("unchecked")
    private static Map<String, Object> alignMap(Map<String, Object> desired, Map<String, Object> live, boolean quantities) {
        Map<String, Object> out = new LinkedHashMap<>();
        desired.forEach((key, value) -> {
            Object there = live.get(key);
            if (QUANTITY_MAPS.contains(key) && value instanceof Map<?, ?> d && there instanceof Map<?, ?> l) {
                out.put(key, alignMap((Map<String, Object>) d, (Map<String, Object>) l, true));
            } else {
                out.put(key, align(value, there, quantities || QUANTITY_FIELDS.contains(key)));
            }
        });
        return out;
    }

    private static boolean sameAmount(Object desired, Object live) {
        if (desired == null || live == null || desired instanceof Map || desired instanceof List) return false;
        try {
            return Quantity.parse(desired.toString()).getNumericalAmount()
                    .compareTo(Quantity.parse(live.toString()).getNumericalAmount()) == 0;
        } catch (IllegalArgumentException | ArithmeticException e) {
            return false;  // not a quantity after all
        }
    }
}
