package dev.windlass.applier.inventory;

import dev.windlass.applier.kube.Failures;
import dev.windlass.applier.write.Attempt;
import dev.windlass.policy.model.ObjectRef;
import dev.windlass.policy.plan.Action;
import dev.windlass.policy.plan.ActionResult;
import dev.windlass.policy.plan.Operation;
import dev.windlass.policy.state.InventoryEntry;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Record-then-apply for one cluster's share of a stage. Before an application's first create or update, every
 * object the stage will create or update for it is put into its inventory; if that fails, none of the app's
 * remaining actions run, so an object is never on a cluster without being recorded there. Objects deleted or
 * orphaned are taken out afterwards: a record that outlives its object is harmless, the reverse is not.
 */
public final class StageRecording {

    private static final Logger log = LoggerFactory.getLogger(StageRecording.class);

    // Applications may be applied side by side: each one's entries are touched by one thread at a time, the maps by many.
    private final Map<String, List<InventoryEntry>> toRecord = new LinkedHashMap<>();  // read-only once built
    private final Set<String> recorded = ConcurrentHashMap.newKeySet();
    private final Map<String, String> failed = new ConcurrentHashMap<>();
    private final Map<String, List<ObjectRef>> released = new ConcurrentSkipListMap<>();
    private final Set<String> onlyCreates = new HashSet<>();  // read-only once built: apps whose recorded writes all create
    private final SystemNamespace namespace = new SystemNamespace();
    private final InventoryBodies bodies;

    /** @param bodies new records' JSON, shared by the clusters of a pass */
    public StageRecording(List<Action> actions, InventoryBodies bodies) {
        this.bodies = bodies;
        Set<String> updating = new HashSet<>();
        for (Action a : actions) {
            if (!isRecorded(a)) continue;
            toRecord.computeIfAbsent(a.app(), app -> new ArrayList<>()).add(InventoryEntry.of(a.desired()));
            if (a.operation() != Operation.Create) updating.add(a.app());
        }
        onlyCreates.addAll(toRecord.keySet());
        onlyCreates.removeAll(updating);
    }

    /**
     * Empty when {@code action} may run (recording its app's inventory first if due); otherwise the action's
     * failed attempt, which says whether the cluster stopped answering.
     */
    public Optional<Attempt> before(KubernetesClient client, Action action) {
        String app = action.app();
        if (!failed.containsKey(app) && isRecorded(action) && !recorded.contains(app)) {
            try {
                // An app that only creates is most likely new here, its inventory too: written without reading it first.
                InventoryConfigMaps.record(client, app, toRecord.get(app), onlyCreates.contains(app), namespace, bodies);
                recorded.add(app);
            } catch (KubernetesClientException e) {
                failed.put(app, Failures.describe(e));
                if (Failures.classify(e) == Failures.Kind.Unreachable) return Optional.of(refusal(action, true));
            } catch (IllegalArgumentException e) {
                failed.put(app, e.getMessage() + "; fix or delete that ConfigMap");
            }
        }
        return failed.containsKey(app) ? Optional.of(refusal(action, false)) : Optional.empty();
    }

    /** Notes objects that left the app, to be taken out of its inventory by {@link #finish}. */
    public void after(ActionResult result) {
        Action a = result.action();
        // Remediation actions (no application) are on objects no inventory holds.
        if (result.succeeded() && !a.app().isEmpty() && (a.operation() == Operation.Delete || a.operation() == Operation.Orphan)) {
            released.computeIfAbsent(a.app(), app -> java.util.Collections.synchronizedList(new ArrayList<>())).add(a.object());
        }
    }

    /** Takes deleted and orphaned objects out of their inventories; a failure only leaves a stale entry behind. */
    public void finish(KubernetesClient client) {
        released.forEach((app, refs) -> {
            try {
                InventoryConfigMaps.release(client, app, refs);
            } catch (KubernetesClientException | IllegalArgumentException e) {
                log.warn("could not take {} deleted or orphaned objects out of the inventory of {}: {}", refs.size(), app,
                        e instanceof KubernetesClientException k ? Failures.describe(k) : e.getMessage());
            }
        });
    }

    private Attempt refusal(Action action, boolean unreachable) {
        String why = failed.get(action.app());
        return new Attempt(ActionResult.failed(action, "not applied: recording it first in the cluster's inventory "
                + InventoryConfigMaps.NAMESPACE + "/" + InventoryConfigMaps.PREFIX + action.app() + " failed: " + why, true),
                unreachable);
    }

    private static boolean isRecorded(Action a) {
        return (a.operation() == Operation.Create || a.operation() == Operation.Update) && !a.desired().implicit()
                && !(a.reason() instanceof dev.windlass.policy.plan.ActionReason.HookRun);
    }
}
