package dev.windlass.policy.parse;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Helm values merged as Flux's helm-controller merges them: each {@code valuesFrom} entry in order, then
 * {@code values}; a mapping merges key by key into the one before it, anything else (a list, a scalar) replaces it. An
 * entry with a {@code targetPath} sets its value, as a string, at that dotted path ({@code a.b\.c} for a key with a dot).
 */
final class FluxHelmValues {
    private FluxHelmValues() {}

    /** {@code over} merged into {@code base} (a new map; neither is changed). */
    @SuppressWarnings("unchecked")
    static Map<String, Object> merged(Map<String, Object> base, Map<String, Object> over) {
        Map<String, Object> out = new LinkedHashMap<>(base);
        over.forEach((k, v) -> {
            if (v instanceof Map<?, ?> m && out.get(k) instanceof Map<?, ?> was) {
                out.put(k, merged((Map<String, Object>) was, (Map<String, Object>) m));
            } else {
                out.put(k, v);
            }
        });
        return out;
    }

    /** Values as YAML text, for Helm to read. */
    static String dump(Map<String, Object> values) {
        org.yaml.snakeyaml.DumperOptions options = new org.yaml.snakeyaml.DumperOptions();
        options.setDefaultFlowStyle(org.yaml.snakeyaml.DumperOptions.FlowStyle.BLOCK);
        options.setSplitLines(false);
        return new org.yaml.snakeyaml.Yaml(options).dump(values);
    }

    /** {@code values} with {@code value} set at {@code targetPath}; null when the path is not one (an empty key). */
    @SuppressWarnings("unchecked")
    static Map<String, Object> withPath(Map<String, Object> values, String targetPath, String value) {
        List<String> keys = keys(targetPath);
        if (keys == null) return null;
        Map<String, Object> out = new LinkedHashMap<>(values);
        Map<String, Object> at = out;
        for (int i = 0; i < keys.size() - 1; i++) {
            Map<String, Object> next = at.get(keys.get(i)) instanceof Map<?, ?> m ? new LinkedHashMap<>((Map<String, Object>) m) : new LinkedHashMap<>();
            at.put(keys.get(i), next);
            at = next;
        }
        at.put(keys.get(keys.size() - 1), value);
        return out;
    }

    /** The keys of a dotted path, {@code \.} standing for a dot in a key; null when a key is empty. */
    static List<String> keys(String path) {
        List<String> keys = new ArrayList<>();
        StringBuilder key = new StringBuilder();
        for (int i = 0; i < path.length(); i++) {
            char c = path.charAt(i);
            if (c == '\\' && i + 1 < path.length() && path.charAt(i + 1) == '.') {
                key.append('.');
                i++;
            } else if (c == '.') {
                keys.add(key.toString());
                key.setLength(0);
            } else {
                key.append(c);
            }
        }
        keys.add(key.toString());
        return keys.stream().anyMatch(String::isEmpty) ? null : keys;
    }
}
