package dev.windlass.policy.diff;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Which fields Git sets that the cluster does not have as written. Only fields present in the desired
 * object count: fields the API server defaults or other controllers add (status, metadata.uid,
 * extra labels) are not drift. Lists are compared item by item, and must have the same length.
 * Resource quantities compare by value ({@code 2000m} equals {@code "2"}). A Secret's {@code stringData} compares
 * as the {@code data} the API server turns it into.
 */
public final class FieldDiff {
    private FieldDiff() {}

    /** Paths like {@code spec.template.spec.containers[0].image}, sorted as found. */
    public static List<String> differences(Map<String, Object> desired, Map<String, Object> live) {
        List<String> out = new ArrayList<>();
        if (!SecretData.isSecret(desired)) {
            compare("", desired, live, out);
            return out;
        }
        compare("", SecretData.folded(desired), SecretData.folded(live), out);
        return SecretData.asWritten(out, desired);
    }

    /** Whether {@code live} has every field {@code desired} sets, with an equal value (the rule {@link #differences} applies). */
    static boolean same(String path, Object desired, Object live) {
        List<String> out = new java.util.ArrayList<>();
        compare(path, desired, live, out);
        return out.isEmpty();
    }

    private static void compare(String path, Object desired, Object live, List<String> out) {
        if (desired instanceof Map<?, ?> d) {
            if (!(live instanceof Map<?, ?> l)) {
                if (!(d.isEmpty() && live == null)) out.add(path.isEmpty() ? "." : path);
                return;
            }
            for (var e : d.entrySet()) {
                String key = String.valueOf(e.getKey());
                compare(path.isEmpty() ? key : path + "." + key, e.getValue(), l.get(key), out);
            }
        } else if (desired instanceof List<?> d) {
            if (!(live instanceof List<?> l) || l.size() != d.size()) {
                if (!(d.isEmpty() && live == null)) out.add(path);
                return;
            }
            for (int i = 0; i < d.size(); i++) compare(path + "[" + i + "]", d.get(i), l.get(i), out);
        } else if (!scalarEquals(desired, live) && !(Quantity.isQuantityPath(path) && Quantity.sameQuantity(desired, live))) {
            out.add(path);
        }
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
