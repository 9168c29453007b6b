package dev.windlass.policy.parse;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One set of parameters an ApplicationSet generator gives, in both of Argo CD's shapes: {@code flat} for the default
 * fasttemplate ({@code {{path.basename}}}, every value text), {@code nested} for {@code goTemplate: true}
 * ({@code {{.path.basename}}}, {@code {{index .path.segments 1}}}, values as the file or element gave them).
 */
record ArgoParams(Map<String, String> flat, Map<String, Object> nested) {

    /** Argo CD's matrix with goTemplate: {@code b} merged into {@code a} deeply, {@code a}'s values kept where both give one. */
    static Map<String, Object> merged(Map<String, Object> a, Map<String, Object> b) {
        Map<String, Object> out = new LinkedHashMap<>(b);
        for (var e : a.entrySet()) {
            Object was = out.get(e.getKey());
            if (was instanceof Map<?, ?> x && e.getValue() instanceof Map<?, ?> y) {
                @SuppressWarnings("unchecked")
                Map<String, Object> mx = (Map<String, Object>) x;
                @SuppressWarnings("unchecked")
                Map<String, Object> my = (Map<String, Object>) y;
                out.put(e.getKey(), merged(my, mx));
            } else {
                out.put(e.getKey(), e.getValue());
            }
        }
        return out;
    }
}
