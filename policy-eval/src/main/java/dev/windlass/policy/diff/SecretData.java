package dev.windlass.policy.diff;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A v1 Secret's {@code stringData} as the API server stores it: folded into {@code data}, base64-encoded, a key in
 * both taking its {@code stringData} value. The server never returns {@code stringData}, so comparing it as written
 * would find drift on every pass.
 */
final class SecretData {
    private SecretData() {}

    static boolean isSecret(Map<String, Object> object) {
        return object != null && "Secret".equals(object.get("kind"))
                && (object.get("apiVersion") == null || "v1".equals(object.get("apiVersion")));
    }

    /** The object with {@code stringData} folded into {@code data}; the object itself when it has no stringData. */
    static Map<String, Object> folded(Map<String, Object> object) {
        if (object == null || !(object.get("stringData") instanceof Map<?, ?> strings)) return object;
        Map<String, Object> data = new LinkedHashMap<>();
        if (object.get("data") instanceof Map<?, ?> existing) existing.forEach((k, v) -> data.put(String.valueOf(k), v));
        strings.forEach((k, v) -> data.put(String.valueOf(k),
                v == null ? null : Base64.getEncoder().encodeToString(String.valueOf(v).getBytes(StandardCharsets.UTF_8))));
        Map<String, Object> copy = new LinkedHashMap<>(object);
        copy.remove("stringData");
        copy.put("data", data);
        return copy;
    }

    /** Paths into the folded {@code data} named as Git wrote them: {@code stringData.K} for a key from stringData. */
    static List<String> asWritten(List<String> paths, Map<String, Object> desired) {
        if (!(desired.get("stringData") instanceof Map<?, ?> strings)) return paths;
        List<String> out = new ArrayList<>();
        for (String p : paths) {
            String key = p.startsWith("data.") ? p.substring("data.".length()) : null;
            out.add(key != null && strings.containsKey(key) ? "stringData." + key : p);
        }
        return out;
    }
}
