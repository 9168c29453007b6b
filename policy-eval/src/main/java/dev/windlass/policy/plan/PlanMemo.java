package dev.windlass.policy.plan;

import dev.windlass.policy.model.TargetKey;

import dev.windlass.policy.model.Application;
import dev.windlass.policy.model.Manifest;
import dev.windlass.policy.model.ObjectRef;
import dev.windlass.policy.model.SourceLocation;
import dev.windlass.policy.observe.ClusterObservation;
import dev.windlass.policy.observe.LiveObject;
import dev.windlass.policy.state.InventoryEntry;
import dev.windlass.policy.state.TargetStatus;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * The last plan of every (application, cluster) target, kept so the next plan does not compare again what nothing
 * changed. A target is planned again when anything its plan read differs: the application's revision, sync policy
 * or manifest locations; any of its objects on the cluster (a live object counts as unchanged only when it is the
 * very same body, which is what a watch hands out until the object changes); whether its namespace exists; what is
 * recorded as applied; and, for recorded objects that left Git, whether they are still there and whether another
 * application claims them. Checking that is a reference comparison per object, not a field-by-field comparison.
 *
 * <p>It never changes a plan, only the work a plan takes: planning with a memo gives the plan planning without one
 * gives ({@code GoldenPlanTest} and {@code PlanMemoTest} hold it to that). Not thread-safe: one memo per planning
 * loop. Targets not planned in a pass are forgotten at its end.
 */
public final class PlanMemo {

    /** How much of the last plan was planned afresh and how much was reused. */
    public record Work(int targetsPlanned, int targetsReused, long objectsPlanned, long objectsReused) {
        public static final Work NONE = new Work(0, 0, 0, 0);
    }

    private Map<TargetKey, Entry> last = new HashMap<>();
    private Map<TargetKey, Entry> current = new HashMap<>();
    private int targetsPlanned;
    private int targetsReused;
    private long objectsPlanned;
    private long objectsReused;
    private Work lastWork = Work.NONE;

    /** The work of the last completed plan. */
    public Work lastWork() { return lastWork; }

    void begin() {
        current = new HashMap<>();
        targetsPlanned = 0;
        targetsReused = 0;
        objectsPlanned = 0;
        objectsReused = 0;
    }

    void end() {
        last = current;
        current = new HashMap<>();
        lastWork = new Work(targetsPlanned, targetsReused, objectsPlanned, objectsReused);
    }

    /** {@link TargetPlanner#plan}, or its last result when nothing it reads has changed. */
    TargetPlanner.Result plan(Application app, ClusterObservation obs, TargetStatus previous, Predicate<ObjectRef> claimedByOthers) {
        TargetKey key = new TargetKey(app.name(), obs.cluster());
        Inputs inputs = Inputs.of(app, obs, previous, claimedByOthers);
        Entry before = last.get(key);
        TargetPlanner.Result result;
        if (before != null && before.inputs.sameAs(inputs)) {
            result = before.result;
            targetsReused++;
            objectsReused += app.manifests().size();
        } else {
            result = TargetPlanner.plan(app, obs, previous, claimedByOthers);
            targetsPlanned++;
            objectsPlanned += app.manifests().size();
        }
        current.put(key, new Entry(inputs, result));
        return result;
    }

    /** A target planned without the memo (an application with failover state injected, whose manifests change with it). */
    TargetPlanner.Result planAfresh(Application app, ClusterObservation obs, TargetStatus previous, Predicate<ObjectRef> claimedByOthers) {
        targetsPlanned++;
        objectsPlanned += app.manifests().size();
        return TargetPlanner.plan(app, obs, previous, claimedByOthers);
    }

    private record Entry(Inputs inputs, TargetPlanner.Result result) {}

    /**
     * Everything {@link TargetPlanner#plan} reads. {@code seen} holds, per manifest, the live object (compared by
     * reference) or whether the namespace exists for the application's own namespace; {@code leftGit} holds, per
     * recorded object no manifest declares any more, whether it is on the cluster and whether another app claims it.
     */
    private record Inputs(String revision, Application.SyncPolicy syncPolicy, List<SourceLocation> locations,
                          boolean serverSideApply, Object[] seen, Map<ObjectRef, InventoryEntry> inventory, boolean[] leftGit) {

        static Inputs of(Application app, ClusterObservation obs, TargetStatus previous, Predicate<ObjectRef> claimedByOthers) {
            List<Manifest> manifests = app.manifests();
            List<SourceLocation> locations = new ArrayList<>(manifests.size());
            Object[] seen = new Object[manifests.size()];
            Map<ObjectRef, Boolean> declared = new HashMap<>();
            for (int i = 0; i < manifests.size(); i++) {
                Manifest m = manifests.get(i);
                locations.add(m.location());
                declared.put(m.ref(), Boolean.TRUE);
                seen[i] = m.implicit() ? Boolean.valueOf(obs.namespaces().contains(m.ref().name())) : obs.objects().get(m.ref());
            }
            Map<ObjectRef, InventoryEntry> inventory = TargetPlanner.inventoryOf(previous, obs.inventories().get(app.name()));
            List<Boolean> left = new ArrayList<>();
            for (ObjectRef ref : inventory.keySet()) {
                if (declared.containsKey(ref)) continue;
                left.add(obs.objects().containsKey(ref));
                left.add(claimedByOthers.test(ref));
            }
            boolean[] leftGit = new boolean[left.size()];
            for (int i = 0; i < leftGit.length; i++) leftGit[i] = left.get(i);
            return new Inputs(app.revision() + rendered(app), app.syncPolicy(), locations, obs.serverSideApply(), seen, inventory, leftGit);
        }

        /** For an application rendered for one cluster, what that cluster got: it may change while the revision does not. */
        private static String rendered(Application app) {
            return app.variants().isEmpty() ? "" : "/" + app.variants().values().iterator().next().rendered();
        }

        boolean sameAs(Inputs o) {
            if (!revision.equals(o.revision) || !syncPolicy.equals(o.syncPolicy) || serverSideApply != o.serverSideApply
                    || seen.length != o.seen.length || !java.util.Arrays.equals(leftGit, o.leftGit)) return false;
            for (int i = 0; i < seen.length; i++) {
                if (!sameObservation(seen[i], o.seen[i])) return false;
            }
            return locations.equals(o.locations) && inventory.equals(o.inventory);
        }

        private static boolean sameObservation(Object a, Object b) {
            if (a == b) return true;
            if (a instanceof LiveObject x && b instanceof LiveObject y) {
                return x.body() == y.body() && x.ref().equals(y.ref()) && x.health() == y.health()
                        && x.healthMessage().equals(y.healthMessage()) && java.util.Objects.equals(x.serverDiff(), y.serverDiff());
            }
            return a instanceof Boolean && a.equals(b);
        }
    }
}
