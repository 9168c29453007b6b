package dev.windlass.applier;

import dev.windlass.applier.cluster.ClusterConnection;
import dev.windlass.applier.inventory.InventoryBodies;
import dev.windlass.applier.inventory.StageRecording;
import dev.windlass.applier.write.Attempt;
import dev.windlass.applier.write.ActionWrite;
import dev.windlass.applier.write.CrdEstablishment;
import dev.windlass.policy.plan.Action;
import dev.windlass.policy.fence.WriteFence;
import dev.windlass.policy.plan.ActionResult;
import dev.windlass.policy.plan.HookGate;
import dev.windlass.policy.plan.HookResult;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;

/**
 * One cluster's share of a stage, in the plan's order as {@link ApplySteps} keeps it: step after step, and within a
 * step up to {@code inFlight} applications side by side, each one's actions one after another, each application's
 * inventory recorded before its objects are written. Once the cluster stops answering, the remaining actions fail as
 * skipped instead of each waiting for its own timeout. The write fence is asked before each action: once it refuses
 * (this replica lost its lease), nothing more is written and the remaining actions fail with its reason.
 */
final class ClusterRun implements ClusterWork {

    /** How long a CRD may take to be served before the actions after it go ahead anyway (and may fail, transiently). */
    private static final Duration CRD_ESTABLISHED = Duration.ofSeconds(30);

    private final String cluster;
    private final ResultLog log;
    private final ActionWrite writes;
    private final WriteFence fence;
    private final LaneThreads threads;
    private final int inFlight;
    private final InventoryBodies inventoryBodies;
    private volatile boolean lost;
    private volatile String refused;
    /** Applications with hooks in this run ({@link HookGate}), and those of them whose sync failed here. */
    private final java.util.Set<String> hooked;
    private final java.util.Set<String> failedSyncs = java.util.concurrent.ConcurrentHashMap.newKeySet();

    /** One action at a time. */
    ClusterRun(String cluster, List<Action> actions, ActionWrite writes, WriteFence fence) {
        this(cluster, actions, writes, fence, null, 1, new InventoryBodies());
    }

    /**
     * @param inFlight        applications written to at once (each has one request in flight); 1 runs everything on the
     *                        caller's thread
     * @param inventoryBodies new inventory records' JSON, shared with the other clusters
     */
    ClusterRun(String cluster, List<Action> actions, ActionWrite writes, WriteFence fence, LaneThreads threads, int inFlight,
               InventoryBodies inventoryBodies) {
        this.cluster = cluster;
        this.log = new ResultLog(actions);
        this.writes = writes;
        this.fence = fence;
        this.threads = threads;
        this.inFlight = threads == null ? 1 : Math.max(1, inFlight);
        this.inventoryBodies = inventoryBodies;
        this.hooked = HookGate.hooked(actions);
    }

    /** One result per action, in order. */
    @Override public List<ActionResult> run(ClusterConnection connection) {
        if (connection instanceof ClusterConnection.Broken broken) {
            return log.endWith("cluster " + cluster + " unreachable: " + broken.message(),
                    "skipped: cluster " + cluster + " unreachable", true);
        }
        var client = ((ClusterConnection.Connected) connection).client();
        StageRecording inventory = new StageRecording(log.actions(), inventoryBodies);
        // One write at a time: exactly the plan's order, as one lane.
        List<List<ApplySteps.Lane>> steps = inFlight == 1 ? List.of(List.of(ApplySteps.inOrder(log.actions()))) : ApplySteps.of(log.actions());
        for (List<ApplySteps.Lane> step : steps) {
            boolean finished = step.size() == 1 ? sequential(client, step, inventory) : sideBySide(client, step, inventory);
            if (!finished) return log.results();
        }
        if (!lost && refused == null && fence.refusal().isEmpty()) inventory.finish(client);
        return log.results();
    }

    private boolean sequential(KubernetesClient client, List<ApplySteps.Lane> step, StageRecording inventory) {
        for (ApplySteps.Lane lane : step) {
            if (!lane(client, lane, inventory)) return false;
        }
        return true;
    }

    /**
     * The step's lanes on the lane threads, at most {@code inFlight} at once. When the cluster's deadline interrupts
     * this thread, the lanes running are interrupted too (their requests fail) and the step ends.
     */
    private boolean sideBySide(KubernetesClient client, List<ApplySteps.Lane> step, StageRecording inventory) {
        Semaphore slots = new Semaphore(inFlight);
        List<Future<Boolean>> running = new ArrayList<>();
        try {
            for (ApplySteps.Lane lane : step) {
                slots.acquire();
                running.add(threads.submit(() -> {
                    try {
                        return lane(client, lane, inventory);
                    } finally {
                        slots.release();
                    }
                }));
            }
            boolean finished = true;
            for (Future<Boolean> f : running) finished &= f.get();
            return finished;
        } catch (InterruptedException e) {
            running.forEach(f -> f.cancel(true));
            Thread.currentThread().interrupt();
            return false;
        } catch (ExecutionException e) {
            running.forEach(f -> f.cancel(true));
            throw e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e.getCause());
        }
    }

    /** One application's actions in a step, one after another; false once the work was ended. */
    private boolean lane(KubernetesClient client, ApplySteps.Lane lane, StageRecording inventory) {
        for (int i : lane.positions()) {
            Action action = log.actions().get(i);
            ActionResult result;
            if (refused == null) refused = fence.refusal().map(why -> "not written: " + why).orElse(null);
            if (refused != null) {
                result = ActionResult.failed(action, refused, true);
            } else if (lost) {
                result = ActionResult.failed(action, "skipped: cluster " + cluster + " unreachable", true);
            } else {
                HookGate.Verdict verdict = HookGate.verdict(action, hooked.contains(action.app()), failedSyncs.contains(action.app()));
                if (verdict == HookGate.Verdict.Run) {
                    if (!log.start(i)) return false;
                    Attempt attempt = attempt(client, action, inventory);
                    result = attempt.result();
                    if (attempt.clusterUnreachable()) lost = true;
                } else {
                    result = verdict == HookGate.Verdict.NoFailure ? ActionResult.ofHook(action, HookResult.NoFailure, "")
                            : ActionResult.ofHook(action, HookResult.HeldByFailure, "");
                }
            }
            if (hooked.contains(action.app()) && HookGate.failsSync(result)) failedSyncs.add(action.app());
            inventory.after(result);
            if (!log.record(i, result)) return false;
        }
        return true;
    }

    private Attempt attempt(KubernetesClient client, Action action, StageRecording inventory) {
        var refusedByInventory = inventory.before(client, action);
        if (refusedByInventory.isPresent()) return refusedByInventory.get();
        if (HookGate.phase(action) == dev.windlass.policy.model.Hook.Phase.PostSync) {
            // A PostSync hook runs once what this sync applied for its application is healthy.
            var unhealthy = writes.hooks().awaitHealthy(client, appliedBefore(action));
            if (unhealthy.isPresent()) return new Attempt(ActionResult.ofHook(action, HookResult.NotHealthy, unhealthy.get()), false);
        }
        Attempt attempt = writes.attempt(client, action);
        if (!CrdEstablishment.wrote(attempt.result())) return attempt;
        return new Attempt(CrdEstablishment.await(client, attempt.result(), CRD_ESTABLISHED), false);
    }

    /** The objects of {@code hook}'s application this run wrote (created or updated), its other hooks and its namespace aside. */
    private List<Action> appliedBefore(Action hook) {
        List<Action> out = new ArrayList<>();
        for (Action a : log.actions()) {
            if (a.app().equals(hook.app()) && HookGate.phase(a) == null && (a.operation() == dev.windlass.policy.plan.Operation.Create
                    || a.operation() == dev.windlass.policy.plan.Operation.Update) && !a.desired().implicit()) {
                out.add(a);
            }
        }
        return out;
    }

    @Override public List<ActionResult> endWith(String current, String rest, boolean transientFailure) {
        return log.endWith(current, rest, transientFailure);
    }
}
