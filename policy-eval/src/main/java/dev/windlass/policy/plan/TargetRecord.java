package dev.windlass.policy.plan;

import dev.windlass.policy.state.Sync;
import dev.windlass.policy.model.Application;
import dev.windlass.policy.model.Manifest;
import dev.windlass.policy.model.ObjectRef;
import dev.windlass.policy.state.Health;
import dev.windlass.policy.state.InventoryEntry;
import dev.windlass.policy.state.TargetStatus;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** Folds one pass's outcomes on one cluster into the application's recorded target status. */
final class TargetRecord {
    private TargetRecord() {}

    /** Whether a target's status says it is waiting on what holds it: held, and nothing written to it failed. */
    static boolean waiting(List<ActionResult> results, HoldReason hold) {
        return hold != null && results.stream().allMatch(ActionResult::succeeded);
    }

    static TargetStatus next(Application app, TargetPlan planned, TargetStatus previous, List<ActionResult> results,
                             HoldReason hold, List<String> heldDrift, List<Event> events) {
        Map<ObjectRef, InventoryEntry> inventory = TargetPlanner.inventoryOf(previous, null);
        planned.released().forEach(inventory::remove);
        int created = 0, configured = 0, deleted = 0;
        List<String> failures = new ArrayList<>();
        for (ActionResult r : results) {
            Action a = r.action();
            if (a.reason() instanceof ActionReason.HookRun run) {
                // A hook is not the application's object: never recorded, never counted as written; its run is an event.
                if (r.hook() != HookResult.NoFailure) {
                    events.add(new Event.HookRan(app.name(), planned.cluster(), a.object(), run.phase(),
                            r.hook() != null ? r.hook() : r.succeeded() ? HookResult.Succeeded
                                    : r.transientFailure() ? HookResult.Unanswered : HookResult.NotCreated, r.message()));
                }
                if (!r.succeeded()) failures.add(run.phase() + " hook " + a.object() + " failed: " + r.message());
                continue;
            }
            if (r.outcome() == Outcome.Skipped) continue;  // held back by a failed hook: not written
            if (!r.succeeded()) {
                failures.add(a.operation() + " " + a.object() + " failed: " + r.message());
                continue;
            }
            switch (a.operation()) {
                case Create, Update -> {
                    if (!a.desired().implicit()) inventory.put(a.object(), InventoryEntry.of(a.desired()));
                    if (r.outcome() == Outcome.Created) created++;
                    else if (r.outcome() == Outcome.Configured) configured++;
                }
                case Orphan -> inventory.remove(a.object());
                case Delete -> {
                    inventory.remove(a.object());
                    deleted++;
                    events.add(new Event.Pruned(app.name(), planned.cluster(), a.object(), a.reason()));
                }
            }
        }
        for (Manifest m : app.on(planned.cluster()).manifests()) {
            // Objects already as Git wants them but missing from the record (first pass after a lost status) are recorded too.
            if (!m.implicit() && !m.isHook() && !inventory.containsKey(m.ref()) && planned.sync() == Sync.Synced) inventory.put(m.ref(), InventoryEntry.of(m));
        }
        boolean wrote = created + configured + deleted > 0;
        if (wrote) {
            events.add(new Event.Synced(app.name(), planned.revision(), planned.cluster(), created, configured, deleted));
        }
        for (ActionResult r : results) {
            if (!r.succeeded() && !(r.action().reason() instanceof ActionReason.HookRun)) events.add(new Event.ApplyFailed(app.name(), planned.cluster(), r.action().operation(), r.action().object(), r.message()));
        }
        boolean synced = failures.isEmpty() && hold == null && planned.drift().isEmpty() && (planned.sync() == Sync.Synced || !results.isEmpty());
        String revision = synced ? planned.revision() : previous == null ? "" : previous.revision();
        Health health = wrote && planned.health() == Health.Healthy ? Health.Progressing : planned.health();
        if (wrote && planned.health() == Health.Missing) health = Health.Progressing;
        String message = !failures.isEmpty() ? String.join("; ", failures)
                : waiting(results, hold) ? "waiting: " + hold.text()
                : planned.healthMessage().isEmpty() || health == Health.Healthy || wrote ? planned.note() : planned.healthMessage();
        Sync sync = synced ? Sync.Synced : Sync.OutOfSync;
        List<String> drift = new ArrayList<>(planned.drift());
        drift.addAll(heldDrift);
        String variant = synced ? planned.variant() : previous == null ? null : previous.variant();
        String rendered = synced ? planned.rendered() : previous == null ? null : previous.rendered();
        return new TargetStatus(planned.cluster(), revision, sync, health, message, drift,
                List.copyOf(new TreeMap<>(inventory).values())).withVariant(variant, rendered);
    }
}
