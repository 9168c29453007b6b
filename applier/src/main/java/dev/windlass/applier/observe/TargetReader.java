package dev.windlass.applier.observe;

import dev.windlass.applier.kube.JsonTree;
import dev.windlass.policy.observe.KindRef;
import dev.windlass.policy.observe.ObservedTarget;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** Turns an object's body into what remediation needs of it: identity, labels, annotations, conditions, owners, age. */
final class TargetReader {
    private TargetReader() {}

    static ObservedTarget read(KindRef kind, Map<String, Object> body) {
        Map<String, Object> meta = JsonTree.childMap(body, "metadata");
        Map<String, Object> status = JsonTree.childMap(body, "status");
        Map<String, Object> spec = JsonTree.childMap(body, "spec");
        List<ObservedTarget.Condition> conditions = new ArrayList<>();
        if (status != null && status.get("conditions") instanceof List<?> list) {
            for (Object o : list) {
                if (!(o instanceof Map<?, ?> c) || c.get("type") == null) continue;
                conditions.add(new ObservedTarget.Condition(text(c.get("type")), text(c.get("status")), text(c.get("lastTransitionTime")),
                        text(c.get("reason")), text(c.get("message"))));
            }
        }
        List<String> owners = new ArrayList<>();
        if (meta != null && meta.get("ownerReferences") instanceof List<?> refs) {
            for (Object o : refs) if (o instanceof Map<?, ?> r) owners.add(text(r.get("kind")) + "/" + text(r.get("name")));
        }
        return new ObservedTarget(kind, meta == null ? "" : text(meta.get("namespace")), meta == null ? "" : text(meta.get("name")),
                strings(meta == null ? null : meta.get("labels")), strings(meta == null ? null : meta.get("annotations")), conditions,
                meta == null ? "" : text(meta.get("creationTimestamp")), owners,
                spec != null && Boolean.TRUE.equals(spec.get("unschedulable")));
    }

    private static Map<String, String> strings(Object o) {
        Map<String, String> out = new TreeMap<>();
        if (o instanceof Map<?, ?> m) m.forEach((k, v) -> out.put(String.valueOf(k), v == null ? "" : String.valueOf(v)));
        return out;
    }

    private static String text(Object o) { return o == null ? "" : String.valueOf(o); }
}
