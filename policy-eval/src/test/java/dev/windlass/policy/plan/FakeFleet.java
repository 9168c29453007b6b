package dev.windlass.policy.plan;

import dev.windlass.policy.model.ObjectRef;
import dev.windlass.policy.observe.ClusterObservation;
import dev.windlass.policy.state.Health;
import dev.windlass.policy.observe.LiveObject;
import dev.windlass.policy.observe.ObservedState;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Clusters as plain maps, for planner tests: applying an action stores the object the way the
 * applier would (with its applied-hash annotation) and marks it Healthy.
 */
final class FakeFleet {
    final Map<String, Map<ObjectRef, LiveObject>> objects = new TreeMap<>();
    final Map<String, Set<String>> namespaces = new TreeMap<>();
    final Map<String, String> unreachable = new TreeMap<>();

    FakeFleet(Iterable<String> clusters) {
        for (String c : clusters) {
            objects.put(c, new HashMap<>());
            namespaces.put(c, new HashSet<>(Set.of("default", "kube-system")));
        }
    }

    ObservedState observe() {
        Map<String, ClusterObservation> m = new HashMap<>();
        for (String c : objects.keySet()) {
            m.put(c, unreachable.containsKey(c) ? ClusterObservation.unreachable(c, unreachable.get(c))
                    : new ClusterObservation(c, dev.windlass.policy.state.Reachability.Reachable, "", objects.get(c),
                            namespaces.get(c), List.of(new dev.windlass.policy.observe.NodeObservation(c + "-node-1", Map.of(), true)), false, Map.of()));
        }
        return new ObservedState(m);
    }

    ApplyResult apply(Plan plan) {
        List<ActionResult> results = new ArrayList<>();
        for (Action a : plan.actions()) {
            Map<ObjectRef, LiveObject> live = objects.get(a.cluster());
            switch (a.operation()) {
                case Delete -> {
                    live.remove(a.object());
                    results.add(ActionResult.ok(a, Outcome.Deleted, ""));
                }
                case Create, Update -> {
                    if (a.desired().implicit()) namespaces.get(a.cluster()).add(a.object().name());
                    else live.put(a.object(), new LiveObject(a.object(), applied(a), Health.Healthy, ""));
                    results.add(ActionResult.ok(a, a.operation() == Operation.Create ? Outcome.Created : Outcome.Configured, ""));
                }
            }
        }
        return new ApplyResult(results);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> applied(Action a) {
        Map<String, Object> body = deepCopy(a.desired().body());
        Map<String, Object> meta = (Map<String, Object>) body.get("metadata");
        Map<String, Object> ann = (Map<String, Object>) meta.computeIfAbsent("annotations", k -> new LinkedHashMap<>());
        ann.put(TargetPlanner.APPLIED_HASH, a.desired().hash());
        Map<String, Object> labels = (Map<String, Object>) meta.computeIfAbsent("labels", k -> new LinkedHashMap<>());
        labels.put("app.kubernetes.io/managed-by", "windlass");
        labels.put(TargetPlanner.APP_LABEL, a.app());
        return body;
    }

    /** Changes one field of a live object, as someone editing it by hand would. */
    @SuppressWarnings("unchecked")
    void edit(String cluster, ObjectRef ref, List<String> path, Object value) {
        LiveObject o = objects.get(cluster).get(ref);
        if (o == null) throw new IllegalArgumentException("no " + ref + " on " + cluster);
        Map<String, Object> body = deepCopy(o.body());
        Map<String, Object> m = body;
        for (int i = 0; i < path.size() - 1; i++) m = (Map<String, Object>) m.get(path.get(i));
        m.put(path.get(path.size() - 1), value);
        objects.get(cluster).put(ref, new LiveObject(ref, body, o.health(), o.healthMessage()));
    }

    @SuppressWarnings("unchecked")
    static <T> T deepCopy(T v) {
        if (v instanceof Map<?, ?> m) {
            Map<String, Object> out = new LinkedHashMap<>();
            m.forEach((k, x) -> out.put(String.valueOf(k), deepCopy(x)));
            return (T) out;
        }
        if (v instanceof List<?> l) {
            List<Object> out = new ArrayList<>();
            l.forEach(x -> out.add(deepCopy(x)));
            return (T) out;
        }
        return v;
    }
}
