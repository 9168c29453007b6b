package dev.windlass.policy.diff;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Which fields Git sets that the cluster does not have as written: the one normaliser Windlass has, used by the planner
 * for drift and by the applier to name what a write changes. On clusters with server-side apply it is only the first
 * look: what it finds is confirmed by asking the API server (see {@code LiveObject.serverDiff}).
 *
 * <p>Only fields present in the desired object count: fields the API server defaults or other controllers add
 * (status, metadata.uid, extra labels) are not drift. The rules that keep what a server stores differently from
 * being drift:
 * <ul>
 *   <li>a zero value ({@code 0}, {@code false}, {@code ""}, an empty map or list, {@code null}) equals a field the
 *       server left out: it omits such fields when it stores them;</li>
 *   <li>resource quantities compare by value ({@code 2000m} equals {@code "2"});</li>
 *   <li>a number and the same number written as a string are equal (int-or-string fields such as ports and
 *       {@code maxSurge});</li>
 *   <li>a Secret's {@code stringData} compares as the {@code data} the API server turns it into;</li>
 *   <li>the object's {@value #MANAGED_BY} label is Windlass's own mark, stamped over what Git says (a chart's
 *       {@code Helm}, for one): never drift.</li>
 * </ul>
 * Lists are compared item by item, and must have the same length.
 */
public final class FieldDiff {
    /** The label Windlass stamps on every object it applies (the applier's OwnershipMarks.MANAGED_BY; keep in step). */
    static final String MANAGED_BY = "app.kubernetes.io/managed-by";
    private static final String MANAGED_BY_PATH = "metadata.labels." + MANAGED_BY;

    private FieldDiff() {}

    /** Paths like {@code spec.template.spec.containers[0].image}, sorted as found. */
    public static List<String> differences(Map<String, Object> desired, Map<String, Object> live) {
        List<String> out = new ArrayList<>();
        if (!SecretData.isSecret(desired)) {
            compare("", "", "", desired, live, out);
            return out;
        }
        compare("", "", "", SecretData.folded(desired), SecretData.folded(live), out);
        return SecretData.asWritten(out, desired);
    }

    /** Whether {@code live} has every field {@code desired} sets, with an equal value (the rule {@link #differences} applies). */
    static boolean same(String path, Object desired, Object live) {
        List<String> out = new ArrayList<>();
        compare(path, "", "", desired, live, out);
        return out.isEmpty();
    }

    /** @param key the map key this value sits at ("" inside a list); {@code parentKey} the key of the map holding it */
    private static void compare(String path, String parentKey, String key, Object desired, Object live, List<String> out) {
        if (live == null && isZero(desired)) return;
        if (path.equals(MANAGED_BY_PATH)) return;
        if (desired instanceof Map<?, ?> d) {
            if (!(live instanceof Map<?, ?> l)) {
                out.add(path.isEmpty() ? "." : path);
                return;
            }
            for (var e : d.entrySet()) {
                String child = String.valueOf(e.getKey());
                compare(path.isEmpty() ? child : path + "." + child, key, child, e.getValue(), l.get(child), out);
            }
        } else if (desired instanceof List<?> d) {
            if (!(live instanceof List<?> l) || l.size() != d.size()) {
                out.add(path);
                return;
            }
            for (int i = 0; i < d.size(); i++) compare(path + "[" + i + "]", key, "", d.get(i), l.get(i), out);
        } else if (!scalarEquals(desired, live) && !(Quantity.isQuantityField(parentKey, key) && Quantity.sameQuantity(desired, live))) {
            out.add(path);
        }
    }

    /**
     * What the API server may leave out when it stores a field: Go's zero values, empty lists, and maps that hold
     * nothing but zero values.
     */
    private static boolean isZero(Object value) {
        if (value == null || Boolean.FALSE.equals(value) || "".equals(value)) return true;
        if (value instanceof Number n) return new BigDecimal(n.toString()).signum() == 0;
        if (value instanceof Map<?, ?> m) return m.values().stream().allMatch(FieldDiff::isZero);
        if (value instanceof List<?> l) return l.isEmpty();
        return false;
    }

    private static boolean scalarEquals(Object desired, Object live) {
        if (desired == null) return live == null;
        if (desired instanceof Number a && live instanceof Number b) {
            return new BigDecimal(a.toString()).compareTo(new BigDecimal(b.toString())) == 0;
        }
        if (live == null) return false;
        if (desired.getClass() != live.getClass()) return String.valueOf(desired).equals(String.valueOf(live));
        return desired.equals(live);
    }
}
