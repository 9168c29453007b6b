package dev.windlass.policy.diff;

import java.math.BigDecimal;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Kubernetes resource quantities ({@code 500m}, {@code 2}, {@code 1Gi}, {@code 1e3}) as numbers, so {@code cpu: 2000m}
 * in Git and the {@code "2"} an API server stores are the same value, not drift. The one rule for quantities in
 * Windlass: the planner's drift and the applier's changed fields both come through {@link FieldDiff}.
 */
final class Quantity {
    private static final Pattern FORM = Pattern.compile("([+-]?[0-9.]+)(Ki|Mi|Gi|Ti|Pi|Ei|[numkMGTPE]|[eE][+-]?[0-9]+)?");
    private static final Map<String, BigDecimal> SUFFIX = Map.ofEntries(
            Map.entry("n", new BigDecimal("1e-9")), Map.entry("u", new BigDecimal("1e-6")), Map.entry("m", new BigDecimal("1e-3")),
            Map.entry("k", new BigDecimal("1e3")), Map.entry("M", new BigDecimal("1e6")), Map.entry("G", new BigDecimal("1e9")),
            Map.entry("T", new BigDecimal("1e12")), Map.entry("P", new BigDecimal("1e15")), Map.entry("E", new BigDecimal("1e18")),
            Map.entry("Ki", BigDecimal.valueOf(1L << 10)), Map.entry("Mi", BigDecimal.valueOf(1L << 20)),
            Map.entry("Gi", BigDecimal.valueOf(1L << 30)), Map.entry("Ti", BigDecimal.valueOf(1L << 40)),
            Map.entry("Pi", BigDecimal.valueOf(1L << 50)), Map.entry("Ei", BigDecimal.valueOf(1L << 60)));

    /**
     * Keys whose values are maps of quantities: container and pod resources, quotas, limit ranges, claims and volumes,
     * node capacity, runtime class overhead.
     */
    private static final Set<String> QUANTITY_MAPS = Set.of("limits", "requests", "hard", "used", "min", "max", "default",
            "defaultRequest", "maxLimitRequestRatio", "capacity", "allocatable", "podFixed", "overhead");
    /** Keys whose value is one quantity. */
    private static final Set<String> QUANTITY_FIELDS = Set.of("sizeLimit", "storage");

    private Quantity() {}

    /** The value, or null when the text is not a quantity. */
    static BigDecimal parse(Object value) {
        if (value instanceof Number n) return new BigDecimal(n.toString());
        if (!(value instanceof String s)) return null;
        Matcher m = FORM.matcher(s.trim());
        if (!m.matches()) return null;
        try {
            BigDecimal base = new BigDecimal(m.group(1));
            String suffix = m.group(2);
            if (suffix == null) return base;
            if (suffix.startsWith("e") || suffix.startsWith("E")) return base.scaleByPowerOfTen(Integer.parseInt(suffix.substring(1)));
            return base.multiply(SUFFIX.get(suffix));
        } catch (NumberFormatException e) {
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
