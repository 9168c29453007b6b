package dev.windlass.engine.reconcile;

import dev.windlass.git.Mirror;
import dev.windlass.policy.model.Application;
import dev.windlass.policy.model.Cluster;
import dev.windlass.policy.model.DesiredState;
import dev.windlass.policy.model.Manifest;
import dev.windlass.policy.model.ObjectRef;
import dev.windlass.policy.observe.ClusterObservation;
import dev.windlass.policy.state.Health;
import dev.windlass.policy.observe.KindRef;
import dev.windlass.policy.observe.LiveObject;
import dev.windlass.policy.observe.ObservedState;
import dev.windlass.policy.plan.ActionResult;
import dev.windlass.policy.plan.Stage;
import dev.windlass.policy.state.AppStatus;
import dev.windlass.policy.state.EngineState;
import dev.windlass.policy.state.InventoryEntry;
import dev.windlass.policy.state.TargetStatus;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Clusters as the status branch last recorded them, for plans made outside the engine process when
 * a cluster cannot be asked (sandbox clusters live inside the engine). Each recorded object is rebuilt
 * from the commit it was applied from. Such a plan sees no drift made since; it says so.
 */
public final class RecordedFleet implements Fleet {
    private final Mirror mirror;
    private final EngineState state;
    private final DesiredState current;
    private final Map<String, LiveObject> reuse;
    private final Map<String, DesiredState> commits = new HashMap<>();

    public RecordedFleet(Mirror mirror, EngineState state) {
        this(mirror, state, null);
    }

    /**
     * @param current the commit being planned, or null: a recorded object whose hash is the one this commit's manifest
     *                has is that manifest (the owner applied it), whatever commit the application's record names
     */
    public RecordedFleet(Mirror mirror, EngineState state, DesiredState current) {
        this(mirror, state, current, new HashMap<>());
    }

    /**
     * @param reuse the objects an earlier fleet built, by what they were built from: an object built from the same
     *              manifest content, recorded hash and health is handed out again as the very same object, so the plan
     *              memo reuses what nothing changed. Replaced by what this fleet builds.
     */
    public RecordedFleet(Mirror mirror, EngineState state, DesiredState current, Map<String, LiveObject> reuse) {
        this.mirror = mirror;
        this.state = state;
        this.current = current;
        this.reuse = reuse;
    }

    @Override public void connect(Map<String, Cluster> clusters) {}

    /**
     * As many nodes, and as many Ready, as the status branch recorded, and reachable or not as recorded: a recorded
     * cluster is as healthy as it was.
     */
    private List<dev.windlass.policy.observe.NodeObservation> recordedNodes(String cluster) {
        var recorded = state.clusters().get(cluster);
        if (recorded == null) return List.of(new dev.windlass.policy.observe.NodeObservation(cluster + "-recorded", Map.of(), true));
        List<dev.windlass.policy.observe.NodeObservation> nodes = new java.util.ArrayList<>();
        for (int i = 0; i < recorded.nodes(); i++) {
            nodes.add(new dev.windlass.policy.observe.NodeObservation(cluster + "-node-" + i, Map.of(), i < recorded.readyNodes()));
        }
        return nodes;
    }

    @Override public ObservedState observe(Map<String, Set<KindRef>> kindsByCluster) {
        Map<String, LiveObject> built = new HashMap<>();
        Map<String, ClusterObservation> out = new HashMap<>();
        for (String cluster : kindsByCluster.keySet()) {
            Map<ObjectRef, LiveObject> objects = new HashMap<>();
            Set<String> namespaces = new HashSet<>(Set.of("default"));
            for (AppStatus app : state.apps().values()) {
                TargetStatus t = app.target(cluster);
                if (t == null || app.source() == null) continue;
                Application applied = appliedFrom(app);
                Application now = current == null ? null : current.apps().get(app.name());
                if (now != null) namespaces.add(now.namespace());
                if (applied == null && now == null) continue;
                if (applied != null) namespaces.add(applied.namespace());
                for (InventoryEntry e : t.inventory()) {
                    Manifest same = now == null ? null : now.on(cluster).manifests().stream()
                            .filter(m -> m.ref().equals(e.ref()) && m.hash().equals(e.hash())).findFirst().orElse(null);
                    if (same != null) {
                        objects.put(same.ref(), reused(cluster, same, e.hash(), t.health(), built));
                        continue;
                    }
                    if (applied == null) continue;
                    // The cluster may run another revision than the commit read here: the object is there all the
                    // same, with the hash it was recorded with; its fields are the closest version at hand.
                    for (Manifest m : applied.on(cluster).manifests()) {
                        if (m.ref().equals(e.ref())) {
                            // A Secret's record has no hash: what was applied is the manifest of the commit it came from.
                            String hash = e.hash().isEmpty() ? m.hash() : e.hash();
                            objects.put(m.ref(), reused(cluster, m, hash, t.health(), built));
                        }
                    }
                }
            }
            var recorded = state.clusters().get(cluster);
            boolean unreachable = recorded != null && recorded.reachability() == dev.windlass.policy.state.Reachability.Unreachable;
            out.put(cluster, new ClusterObservation(cluster, unreachable ? dev.windlass.policy.state.Reachability.Unreachable
                    : dev.windlass.policy.state.Reachability.Reachable, recorded == null ? "" : recorded.message(), objects, namespaces,
                    recordedNodes(cluster), false, Map.of()));
        }
        reuse.clear();
        reuse.putAll(built);
        return new ObservedState(out);
    }

    /** The object built from this manifest with this hash and health: the one built last time if there was one. */
    private LiveObject reused(String cluster, Manifest m, String hash, Health health, Map<String, LiveObject> built) {
        String key = cluster + "\n" + m.ref() + "\n" + m.hash() + "\n" + hash + "\n" + health;
        LiveObject object = reuse.get(key);
        if (object == null) object = new LiveObject(m.ref(), withHash(m, hash), health, "");
        built.put(key, object);
        return object;
    }

    private Application appliedFrom(AppStatus app) {
        DesiredState d = commits.computeIfAbsent(app.source(), sha -> {
            try {
                return dev.windlass.engine.render.AppRendering.shared().read(mirror.snapshot(sha));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
        return d.apps().get(app.name());
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> withHash(Manifest m, String hash) {
        Map<String, Object> body = new LinkedHashMap<>(m.body());
        Map<String, Object> meta = new LinkedHashMap<>((Map<String, Object>) body.get("metadata"));
        Map<String, Object> ann = new LinkedHashMap<>(meta.get("annotations") instanceof Map<?, ?> a ? (Map<String, Object>) a : Map.of());
        ann.put("windlass.dev/applied-hash", hash);
        meta.put("annotations", ann);
        body.put("metadata", meta);
        return body;
    }

    @Override public List<ActionResult> execute(Stage stage, Set<String> clusters) {
        throw new UnsupportedOperationException("a recorded fleet only plans");
    }

    @Override public List<ActionResult> dryRun(Stage stage, Set<String> clusters) {
        return stage.actions().stream().filter(a -> clusters.contains(a.cluster()))
                .map(a -> new ActionResult(a, dev.windlass.policy.plan.Outcome.Skipped, "dry-run not available: planned from the recorded state", false))
                .toList();
    }

    @Override public void close() {}
}
