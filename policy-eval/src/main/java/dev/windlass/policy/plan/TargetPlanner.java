package dev.windlass.policy.plan;

import dev.windlass.policy.state.Sync;
import dev.windlass.policy.diff.FieldDiff;
import dev.windlass.policy.diff.IgnoredFields;
import dev.windlass.policy.model.Application;
import dev.windlass.policy.model.Application.ApplyStrategy;
import dev.windlass.policy.model.Manifest;
import dev.windlass.policy.model.Manifest.GcPolicy;
import dev.windlass.policy.model.ObjectRef;
import dev.windlass.policy.observe.ClusterObservation;
import dev.windlass.policy.state.Health;
import dev.windlass.policy.observe.LiveObject;
import dev.windlass.policy.state.InventoryEntry;
import dev.windlass.policy.state.TargetStatus;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * One application on one reachable cluster: pairs each desired object with the live one and decides
 * create, update, drift report or nothing; then prunes what left Git, per its gc policy, once the new
 * revision is healthy.
 */
final class TargetPlanner {
    static final String APPLIED_HASH = "windlass.dev/applied-hash";
    static final String APP_LABEL = "windlass.dev/app";

    private TargetPlanner() {}

    /**
     * @param held     prunes waiting for the new revision to be healthy
     * @param released recorded objects this app lets go of without touching them (another app now declares them)
     */
    record Result(List<Action> applies, List<Action> deletes, List<HeldAction> held, List<ObjectRef> released, TargetPlan target) {
        /** Unmodifiable: a result may be reused by the next plan ({@link PlanMemo}). */
        Result {
            applies = List.copyOf(applies);
            deletes = List.copyOf(deletes);
            held = List.copyOf(held);
            released = List.copyOf(released);
        }
    }

    /** @param claimedByOthers objects other applications declare on this cluster */
    static Result plan(Application app, ClusterObservation obs, TargetStatus previous, java.util.function.Predicate<ObjectRef> claimedByOthers) {
        String cluster = obs.cluster();
        ApplyStrategy strategy = effectiveStrategy(app.syncPolicy().applyStrategy(), obs);
        List<Action> applies = new ArrayList<>();
        List<String> drift = new ArrayList<>();
        List<String> notes = new ArrayList<>();
        Health health = Health.Healthy;
        String healthMessage = "";
        Set<ObjectRef> desired = new HashSet<>();
        Map<ObjectRef, InventoryEntry> inventory = inventoryOf(previous, obs.inventories().get(app.name()));
        List<Manifest> hooks = new ArrayList<>();
        for (Manifest m : app.manifests()) {
            if (m.isHook()) {
                // Not the application's objects: run in a sync, never compared, tracked or pruned.
                hooks.add(m);
                continue;
            }
            desired.add(m.ref());
            if (m.implicit()) {
                if (!obs.namespaces().contains(m.ref().name())) {
                    applies.add(action(app, cluster, m, Operation.Create, new ActionReason.NamespaceAbsent(), List.of(), strategy));
                }
                continue;
            }
            LiveObject live = obs.objects().get(m.ref());
            if (live == null && ranToCompletion(m, inventory.get(m.ref()))) {
                notes.add(m.ref() + " ran to completion and was removed after its ttlSecondsAfterFinished; it runs again when it changes in Git");
                continue;
            }
            if (live == null) {
                health = health.worse(Health.Missing);
                if (healthMessage.isEmpty()) healthMessage = m.ref() + " is missing";
                if (m.applyMode() == Manifest.ApplyMode.ONCE && inventory.containsKey(m.ref())) {
                    notes.add(m.ref() + " was deleted on the cluster; apply-once objects are not re-created");
                } else {
                    applies.add(action(app, cluster, m, Operation.Create, new ActionReason.NotOnCluster(), List.of(), strategy));
                }
                continue;
            }
            if (live.health() != Health.Healthy && health.worse(live.health()) != health) {
                healthMessage = m.ref() + ": " + live.healthMessage();
            }
            health = health.worse(live.health());
            if (m.applyMode() == Manifest.ApplyMode.ONCE) continue;
            List<String> fields = drift(app, m, live);
            String applied = annotation(live, APPLIED_HASH);
            String owner = label(live, APP_LABEL);
            Manifest sent = sentOver(app, m, live);
            if (owner != null && !owner.equals(app.name())) {
                applies.add(action(app, cluster, sent, Operation.Update, new ActionReason.TakenOver(owner), fields, strategy));
            } else if (!m.hash().equals(applied)) {
                ActionReason why = applied == null ? new ActionReason.NotAppliedYet() : new ActionReason.ChangedInGit();
                applies.add(action(app, cluster, sent, Operation.Update, why, fields, strategy));
            } else if (!fields.isEmpty()) {
                if (app.syncPolicy().selfHeal()) {
                    applies.add(driftCorrection(app, cluster, sent, fields, strategy));
                } else {
                    for (String f : fields) drift.add(m.ref() + ": " + f);
                }
            }
        }
        List<ObjectRef> released = new ArrayList<>();
        // A hook recorded as an object (applied as one before hooks were run) is let go of, never pruned: it is run now.
        Set<ObjectRef> hookRefs = new HashSet<>();
        hooks.forEach(h -> hookRefs.add(h.ref()));
        List<Action> prunes = prunes(app, cluster, obs, inventory, desired, ref -> claimedByOthers.test(ref) || hookRefs.contains(ref), notes, released);
        List<Action> deletes = new ArrayList<>();
        List<HeldAction> held = new ArrayList<>();
        if (!prunes.isEmpty() && (!applies.isEmpty() || health != Health.Healthy)) {
            HoldReason why = new HoldReason.PruneAwaitsHealth(app.revision(), cluster);
            prunes.forEach(p -> held.add(new HeldAction(p, why)));
        } else {
            deletes.addAll(prunes);
        }
        if (!applies.isEmpty()) applies.addAll(hookRuns(app, cluster, hooks, inventory.isEmpty(), strategy));
        boolean changes = !applies.isEmpty() || !prunes.isEmpty();
        Sync sync = changes || !drift.isEmpty() ? Sync.OutOfSync : Sync.Synced;
        return new Result(applies, deletes, held, released,
                new TargetPlan(cluster, sync, health, healthMessage, drift, String.join("; ", notes), released, app.revision(),
                        app.variantOn(cluster), app.renderedOn(cluster)));
    }

    /**
     * The hooks of a sync: each hook once per phase it runs in, for a sync that installs ({@code install}: nothing of the
     * application recorded on the cluster yet) or upgrades. Only called when the sync writes something: an idle pass
     * runs no hook.
     */
    static List<Action> hookRuns(Application app, String cluster, List<Manifest> hooks, boolean install, ApplyStrategy strategy) {
        List<Action> out = new ArrayList<>();
        for (Manifest m : hooks) {
            for (dev.windlass.policy.model.Hook.Phase phase : dev.windlass.policy.model.Hook.Phase.values()) {
                if (phase == dev.windlass.policy.model.Hook.Phase.Skip || !m.hook().runs(phase, install)) continue;
                out.add(new Action(app.name(), cluster, m.ref(), m.apiVersion(), Operation.Create,
                        new ActionReason.HookRun(phase, m.hook().weight(), install, m.hook().source()), List.of(), m, strategy, app.syncPolicy().force()));
            }
        }
        return out;
    }

    /**
     * The fields Git sets that the live object does not have as written, ignored differences left out. Windlass's own
     * comparison looks first; when it finds something and the API server was asked about this very content (a dry
     * run, on clusters with server-side apply), the server's answer decides: what it stores differently is no drift.
     */
    static List<String> drift(Application app, Manifest m, LiveObject live) {
        List<String> fields = FieldDiff.differences(IgnoredFields.leftOut(m.ref(), m.body(), live.body(), app.syncPolicy().ignoreDifferences()), live.body());
        if (fields.isEmpty() || live.serverDiff() == null || !live.serverDiff().desiredHash().equals(m.hash())) return fields;
        return live.serverDiff().fields();
    }

    /** The object an update sends: Git's, with the live value of each field the application ignores differences in. */
    static Manifest sentOver(Application app, Manifest m, LiveObject live) {
        var rules = app.syncPolicy().ignoreDifferences();
        if (!IgnoredFields.any(m.ref(), rules)) return m;
        return m.sending(IgnoredFields.liveValuesKept(m.ref(), m.body(), live.body(), rules));
    }

    /**
     * Recorded objects Git no longer has for this app. {@code OnAppUpdate}: deleted when prune is on;
     * {@code OnAppDelete}: kept until the application is deleted; {@code Never}: orphaned (kept, unmarked).
     * An object another application now declares is released, never deleted.
     */
    private static List<Action> prunes(Application app, String cluster, ClusterObservation obs, Map<ObjectRef, InventoryEntry> inventory,
                                       Set<ObjectRef> desired, java.util.function.Predicate<ObjectRef> claimedByOthers, List<String> notes, List<ObjectRef> released) {
        List<Action> out = new ArrayList<>();
        for (InventoryEntry e : inventory.values()) {
            if (desired.contains(e.ref())) continue;
            if (claimedByOthers.test(e.ref())) {
                released.add(e.ref());
                continue;
            }
            if (!obs.objects().containsKey(e.ref()) || e.gcIs(GcPolicy.ON_APP_DELETE)) continue;
            if (!app.syncPolicy().prune()) {
                notes.add(e.ref() + " left Git but prune is off; it stays on the cluster");
                continue;
            }
            boolean orphan = e.gcIs(GcPolicy.NEVER);
            out.add(new Action(app.name(), cluster, e.ref(), e.apiVersion(), orphan ? Operation.Orphan : Operation.Delete,
                    new ActionReason.Removed(ActionReason.Leave.FromGit, cluster, orphan), List.of(), null, ApplyStrategy.ClientSide, false));
        }
        return out;
    }

    /**
     * A Job the cluster deletes once it has finished ({@code spec.ttlSecondsAfterFinished}), already applied with this
     * very content: it ran, and creating it again would run it again on every pass. It runs again when Git changes it.
     */
    static boolean ranToCompletion(Manifest m, InventoryEntry applied) {
        return applied != null && m.hash().equals(applied.hash()) && m.ref().group().equals("batch") && m.ref().kind().equals("Job")
                && m.body().get("spec") instanceof Map<?, ?> spec && spec.get("ttlSecondsAfterFinished") != null;
    }

    /** Everything recorded for an application on a cluster it leaves: deleted, or orphaned when its gc policy is Never. */
    static List<Action> removal(String app, ActionReason.Leave why, ClusterObservation obs, List<InventoryEntry> recorded, java.util.function.Predicate<ObjectRef> claimedByOthers) {
        List<Action> out = new ArrayList<>();
        for (InventoryEntry e : recorded) {
            if (!obs.objects().containsKey(e.ref()) || claimedByOthers.test(e.ref())) continue;
            boolean orphan = e.gcIs(GcPolicy.NEVER);
            out.add(new Action(app, obs.cluster(), e.ref(), e.apiVersion(), orphan ? Operation.Orphan : Operation.Delete,
                    new ActionReason.Removed(why, obs.cluster(), orphan), List.of(), null, ApplyStrategy.ClientSide, false));
        }
        return out;
    }

    static ApplyStrategy effectiveStrategy(ApplyStrategy wanted, ClusterObservation obs) {
        return wanted == ApplyStrategy.ServerSide && !obs.serverSideApply() ? ApplyStrategy.ClientSide : wanted;
    }

    /** The status branch's record joined with the cluster's own record: whatever either knows was applied. */
    static Map<ObjectRef, InventoryEntry> inventoryOf(TargetStatus previous, List<InventoryEntry> onCluster) {
        Map<ObjectRef, InventoryEntry> m = new TreeMap<>();
        if (onCluster != null) onCluster.forEach(e -> m.put(e.ref(), e));
        if (previous != null) previous.inventory().forEach(e -> m.put(e.ref(), e));
        return m;
    }

    private static String annotation(LiveObject live, String key) {
        return live.body().get("metadata") instanceof Map<?, ?> meta && meta.get("annotations") instanceof Map<?, ?> a && a.get(key) != null
                ? a.get(key).toString() : null;
    }

    private static String label(LiveObject live, String key) {
        return live.body().get("metadata") instanceof Map<?, ?> meta && meta.get("labels") instanceof Map<?, ?> l && l.get(key) != null
                ? l.get(key).toString() : null;
    }

    private static Action driftCorrection(Application app, String cluster, Manifest m, List<String> fields, ApplyStrategy s) {
        return new Action(app.name(), cluster, m.ref(), m.apiVersion(), Operation.Update, new ActionReason.Drift(),
                fields, m, s, app.syncPolicy().force(), true);
    }

    private static Action action(Application app, String cluster, Manifest m, Operation op, ActionReason reason, List<String> fields, ApplyStrategy s) {
        return new Action(app.name(), cluster, m.ref(), m.apiVersion(), op, reason, fields, m, s, app.syncPolicy().force());
    }
}
