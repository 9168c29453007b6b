package dev.windlass.policy.plan;

import dev.windlass.policy.diff.FieldDiff;
import dev.windlass.policy.model.Application;
import dev.windlass.policy.model.Application.ApplyStrategy;
import dev.windlass.policy.model.Manifest;
import dev.windlass.policy.model.ObjectRef;
import dev.windlass.policy.observe.ClusterObservation;
import dev.windlass.policy.observe.Health;
import dev.windlass.policy.observe.LiveObject;
import dev.windlass.policy.state.InventoryEntry;
import dev.windlass.policy.state.TargetStatus;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One application on one reachable cluster: pairs each desired object with the live one and decides
 * create, update, drift report or nothing; then prunes what left Git, per its gc policy.
 */
final class TargetPlanner {
    static final String APPLIED_HASH = "windlass.dev/applied-hash";

    private TargetPlanner() {}

    record Result(List<Action> applies, List<Action> deletes, TargetPlan target) {}

    static Result plan(Application app, ClusterObservation obs, TargetStatus previous) {
        String cluster = obs.cluster();
        ApplyStrategy strategy = effectiveStrategy(app.syncPolicy().applyStrategy(), obs);
        List<Action> applies = new ArrayList<>();
        List<String> drift = new ArrayList<>();
        List<String> notes = new ArrayList<>();
        Health health = Health.Healthy;
        String healthMessage = "";
        Set<ObjectRef> desired = new HashSet<>();
        Map<ObjectRef, InventoryEntry> inventory = inventoryOf(previous);
        for (Manifest m : app.manifests()) {
            desired.add(m.ref());
            if (m.implicit()) {
                if (!obs.namespaces().contains(m.ref().name())) {
                    applies.add(action(app, cluster, m, Operation.Create, "namespace of the application, created because it is absent", List.of(), strategy));
                }
                continue;
            }
            LiveObject live = obs.objects().get(m.ref());
            if (live == null) {
                health = health.worse(Health.Missing);
                if (healthMessage.isEmpty()) healthMessage = m.ref() + " is missing";
                if (m.applyMode() == Manifest.ApplyMode.ONCE && inventory.containsKey(m.ref())) {
                    notes.add(m.ref() + " was deleted on the cluster; apply-once objects are not re-created");
                } else {
                    applies.add(action(app, cluster, m, Operation.Create, "not on the cluster", List.of(), strategy));
                }
                continue;
            }
            if (live.health() != Health.Healthy && health.worse(live.health()) != health) {
                healthMessage = m.ref() + ": " + live.healthMessage();
            }
            health = health.worse(live.health());
            if (m.applyMode() == Manifest.ApplyMode.ONCE) continue;
            List<String> fields = FieldDiff.differences(m.body(), live.body());
            String applied = appliedHash(live);
            if (!m.hash().equals(applied)) {
                String why = applied == null ? "on the cluster but not applied by Windlass yet" : "changed in Git";
                applies.add(action(app, cluster, m, Operation.Update, why, fields, strategy));
            } else if (!fields.isEmpty()) {
                if (app.syncPolicy().selfHeal()) {
                    applies.add(action(app, cluster, m, Operation.Update, "drift: changed on the cluster, self-heal restores Git's version", fields, strategy));
                } else {
                    for (String f : fields) drift.add(m.ref() + ": " + f);
                }
            }
        }
        List<Action> deletes = prunes(app, cluster, obs, inventory, desired, notes, strategy);
        boolean changes = !applies.isEmpty() || !deletes.isEmpty();
        TargetPlan.Sync sync = changes || !drift.isEmpty() ? TargetPlan.Sync.OutOfSync : TargetPlan.Sync.Synced;
        return new Result(applies, deletes, new TargetPlan(cluster, sync, health, healthMessage, drift, String.join("; ", notes)));
    }

    /** Objects recorded as applied that Git no longer has: deleted when prune is on and their gc policy says so. */
    private static List<Action> prunes(Application app, String cluster, ClusterObservation obs, Map<ObjectRef, InventoryEntry> inventory,
                                       Set<ObjectRef> desired, List<String> notes, ApplyStrategy strategy) {
        List<Action> deletes = new ArrayList<>();
        for (InventoryEntry e : inventory.values()) {
            if (desired.contains(e.ref()) || !obs.objects().containsKey(e.ref())) continue;
            if (!"OnAppUpdate".equals(e.gc())) continue;
            if (!app.syncPolicy().prune()) {
                notes.add(e.ref() + " left Git but prune is off; it stays on the cluster");
                continue;
            }
            deletes.add(new Action(app.name(), cluster, e.ref(), e.apiVersion(), Operation.Delete, "removed from Git", List.of(), null, strategy, false));
        }
        return deletes;
    }

    /** Everything recorded for an application on a cluster it leaves, deleted unless its gc policy keeps it. */
    static List<Action> removal(String app, String why, ClusterObservation obs, TargetStatus previous) {
        List<Action> deletes = new ArrayList<>();
        for (InventoryEntry e : previous.inventory()) {
            if ("Never".equals(e.gc()) || !obs.objects().containsKey(e.ref())) continue;
            deletes.add(new Action(app, obs.cluster(), e.ref(), e.apiVersion(), Operation.Delete, why, List.of(), null, ApplyStrategy.ClientSide, false));
        }
        return deletes;
    }

    static ApplyStrategy effectiveStrategy(ApplyStrategy wanted, ClusterObservation obs) {
        return wanted == ApplyStrategy.ServerSide && !obs.serverSideApply() ? ApplyStrategy.ClientSide : wanted;
    }

    static Map<ObjectRef, InventoryEntry> inventoryOf(TargetStatus previous) {
        Map<ObjectRef, InventoryEntry> m = new java.util.TreeMap<>();
        if (previous != null) previous.inventory().forEach(e -> m.put(e.ref(), e));
        return m;
    }

    private static String appliedHash(LiveObject live) {
        if (live.body().get("metadata") instanceof Map<?, ?> meta && meta.get("annotations") instanceof Map<?, ?> a) {
            Object h = a.get(APPLIED_HASH);
            return h == null ? null : h.toString();
        }
        return null;
    }

    private static Action action(Application app, String cluster, Manifest m, Operation op, String reason, List<String> fields, ApplyStrategy s) {
        return new Action(app.name(), cluster, m.ref(), m.apiVersion(), op, reason, fields, m, s, app.syncPolicy().force());
    }
}
