package dev.windlass.policy.diff;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The fields a live object's {@code metadata.managedFields} says some field managers own, read from the server's own
 * field sets ({@code fieldsV1}): {@code f:replicas} is a map key, {@code k:{"name":"web"}} the list item with those key
 * values, {@code v:"x"} the list item equal to "x", {@code i:2} the third item, {@code .} the node itself. Only leaves
 * count as owned fields; an entry that lists children owns those children, not everything under it.
 */
final class ManagedFields {
    private static final ObjectMapper JSON = new ObjectMapper();

    private ManagedFields() {}

    /** Where each field owned by one of {@code managers} is. Empty when the object has no managed fields. */
    static List<FieldLocation> ownedBy(Map<String, Object> live, List<String> managers) {
        List<FieldLocation> out = new ArrayList<>();
        if (managers.isEmpty() || !(live.get("metadata") instanceof Map<?, ?> meta)
                || !(meta.get("managedFields") instanceof List<?> entries)) return out;
        for (Object entry : entries) {
            if (entry instanceof Map<?, ?> e && managers.contains(String.valueOf(e.get("manager")))
                    && e.get("fieldsV1") instanceof Map<?, ?> fields) {
                collect(new FieldLocation(List.of()), fields, out);
            }
        }
        return out;
    }

    private static void collect(FieldLocation at, Map<?, ?> set, List<FieldLocation> out) {
        for (var e : set.entrySet()) {
            String key = String.valueOf(e.getKey());
            if (key.equals(".")) continue;
            FieldLocation.Step step = step(key);
            if (step == null) continue;  // a form this reader does not know: owning less is the safe side
            FieldLocation child = at.then(step);
            if (e.getValue() instanceof Map<?, ?> children && children.keySet().stream().anyMatch(k -> !".".equals(k))) {
                collect(child, children, out);
            } else {
                out.add(child);
            }
        }
    }

    private static FieldLocation.Step step(String key) {
        if (key.length() < 2 || key.charAt(1) != ':') return null;
        String rest = key.substring(2);
        try {
            return switch (key.charAt(0)) {
                case 'f' -> new FieldLocation.Key(rest);
                case 'i' -> new FieldLocation.Index(Integer.parseInt(rest));
                case 'k' -> JSON.readValue(rest, Map.class) instanceof Map<?, ?> keys ? new FieldLocation.ItemWithKeys(cast(keys)) : null;
                case 'v' -> new FieldLocation.ItemEqualTo(JSON.readValue(rest, Object.class));
                default -> null;
            };
        } catch (JsonProcessingException | NumberFormatException e) {
            return null;
        }
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> cast(Map<?, ?> m) { return (Map<String, Object>) m; }
}
