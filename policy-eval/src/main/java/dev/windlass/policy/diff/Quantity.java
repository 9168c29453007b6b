package dev.windlass.policy.diff;

import java.math.BigDecimal;
import java.util.Set;

/**
 * Kubernetes resource quantities ({@code 500m}, {@code 2}, {@code 1Gi}, {@code 1e3}) as numbers, so {@code cpu: 2000m}
 * in Git and the {@code "2"} an API server stores are the same value, not drift. The one rule for quantities in
 * Windlass: the planner's drift and the applier's changed fields both come through {@link FieldDiff}. The numbers are
 * read by the Kubernetes client's model, as the API server's own rules have them.
 */
final class Quantity {
    /**
     * Keys whose values are maps of quantities: container and pod resources, quotas, limit ranges, claims and volumes,
     * node capacity, runtime class overhead.
     */
    private static final Set<String> QUANTITY_MAPS = Set.of("limits", "requests", "hard", "used", "min", "max", "default",
            "defaultRequest", "maxLimitRequestRatio", "capacity", "allocatable", "podFixed", "overhead");
    /** Keys whose value is one quantity. */
    private static final Set<String> QUANTITY_FIELDS = Set.of("sizeLimit", "storage");

    private Quantity() {}

    /** The value, or null when the text is not a quantity (read by the Kubernetes client's own model). */
    static BigDecimal parse(Object value) {
        if (value instanceof Number n) return new BigDecimal(n.toString());
        if (!(value instanceof String s) || s.isBlank()) return null;
        try {
            return io.fabric8.kubernetes.api.model.Quantity.getAmountInBytes(io.fabric8.kubernetes.api.model.Quantity.parse(s.trim()));
        } catch (IllegalArgumentException | ArithmeticException e) {
            return null;
        }
    }

    /** Whether the value at {@code key}, inside a map found at {@code parentKey}, is a quantity. */
    static boolean isQuantityField(String parentKey, String key) {
        return QUANTITY_MAPS.contains(parentKey) || QUANTITY_FIELDS.contains(key);
    }

    static boolean sameQuantity(Object desired, Object live) {
        BigDecimal a = parse(desired);
        BigDecimal b = parse(live);
        return a != null && b != null && a.compareTo(b) == 0;
    }
}
