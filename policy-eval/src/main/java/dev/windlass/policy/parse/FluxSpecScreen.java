package dev.windlass.policy.parse;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a Flux object's spec holds that Windlass refuses, or accepts and ignores: the same rule for every Flux kind it
 * reads. A refused field is an error at it that says why; ignored fields are named together in one warning, at the
 * first of them.
 */
final class FluxSpecScreen {
    private FluxSpecScreen() {}

    /** Each field of {@code notSupported} that {@code spec} has is an error at it, with the reason the map gives. */
    static void refuse(Fields spec, Map<String, String> notSupported) {
        for (var e : notSupported.entrySet()) {
            if (spec.has(e.getKey())) spec.error(e.getKey(), spec.name(e.getKey()) + " is not supported by Windlass yet: " + e.getValue());
        }
    }

    /** The fields of {@code ignored} that {@code spec} has, in the map's order, each as {@code field (why)}, by field. */
    static Map<String, String> ignored(Fields spec, Map<String, String> ignored) {
        Map<String, String> out = new LinkedHashMap<>();
        for (var e : ignored.entrySet()) if (spec.has(e.getKey())) out.put(e.getKey(), e.getKey() + " (" + e.getValue() + ")");
        return out;
    }

    /** One warning at {@code first} naming every ignored field of the {@code kind}'s spec; nothing when none is. */
    static void warn(Fields spec, String kind, String first, List<String> ignored) {
        if (first == null || ignored.isEmpty()) return;
        spec.warning(first, kind + ".spec: accepted and ignored, since they change when Flux works, not what it applies: "
                + String.join("; ", ignored));
    }
}
