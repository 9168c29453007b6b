package dev.windlass.engine.reconcile;

import dev.windlass.policy.model.Cluster;
import dev.windlass.policy.observe.DesiredObjects;
import dev.windlass.policy.observe.KindRef;
import dev.windlass.policy.observe.ObservedState;
import dev.windlass.policy.fence.WriteFence;
import dev.windlass.policy.plan.ActionResult;
import dev.windlass.policy.plan.Stage;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** The clusters a pass talks to. Each cluster's trouble stays its own: results, never exceptions, per cluster. */
public interface Fleet extends AutoCloseable {

    /** Connects to the clusters Git lists now and lets go of the ones it no longer lists. */
    void connect(Map<String, Cluster> clusters);

    ObservedState observe(Map<String, Set<KindRef>> kindsByCluster);

    /**
     * Also every object of the kinds remediation policies watch on each cluster. A fleet that cannot see them
     * (recorded state) observes none: nothing is remediated from a record.
     */
    default ObservedState observe(Map<String, Set<KindRef>> kindsByCluster, Map<String, Set<KindRef>> targetsByCluster) {
        return observe(kindsByCluster);
    }

    /**
     * Also asks the API servers that can answer (server-side apply) about each object Windlass's own comparison finds
     * different from what {@code desired} says, so that what a server stores differently is not taken for drift.
     */
    default ObservedState observe(Map<String, Set<KindRef>> kindsByCluster, Map<String, Set<KindRef>> targetsByCluster,
                                  DesiredObjects desired) {
        return observe(kindsByCluster, targetsByCluster);
    }

    /**
     * What every watch of these clusters holds, made without asking any cluster: equal stamps mean an observation in
     * between would have read the same objects. Empty when the fleet cannot vouch for that (some read would ask its
     * cluster, or the fleet keeps no watches): every pass then observes.
     */
    default java.util.Optional<dev.windlass.applier.observe.FleetStamp> stamp(Set<String> clusters) { return java.util.Optional.empty(); }

    /**
     * Proves again the watches of these clusters whose proof ran out while nothing of their kind was written (one LIST
     * of metadata each), so that a quiet fleet's {@link #stamp} stays what it was. Does nothing for a fleet that keeps
     * no watches.
     */
    default void renewProofs(Set<String> clusters) {}

    /** Whether every one of these clusters says it is ready now: one request each. False when the fleet cannot tell. */
    default boolean ready(Set<String> clusters) { return false; }

    /** Runs the stage's actions for the given clusters only, in the stage's order. */
    List<ActionResult> execute(Stage stage, Set<String> clusters);

    /**
     * Runs a plan's stages: a cluster moves to the next stage only when every action of the last one succeeded there.
     * Results in plan order. This default runs stage after stage across the fleet; a fleet that can lets each cluster go
     * through its stages without waiting for the others.
     */
    default List<ActionResult> executeStages(List<Stage> stages) {
        return executeStages(stages, WriteFence.OPEN);
    }

    /**
     * {@link #executeStages(List)}, asking {@code fence} before every write: once it refuses, nothing more is written
     * and the actions left fail with its reason. This default asks before each stage.
     */
    default List<ActionResult> executeStages(List<Stage> stages, WriteFence fence) {
        List<ActionResult> results = new java.util.ArrayList<>();
        Set<String> failed = new java.util.HashSet<>();
        for (Stage stage : stages) {
            Set<String> clusters = new java.util.TreeSet<>(stage.clusters());
            clusters.removeAll(failed);
            if (clusters.isEmpty()) continue;
            java.util.Optional<String> refusal = fence.refusal();
            if (refusal.isPresent()) {
                for (var a : stage.actions()) if (clusters.contains(a.cluster())) results.add(ActionResult.failed(a, "not written: " + refusal.get(), true));
                failed.addAll(clusters);
                continue;
            }
            for (ActionResult r : execute(stage, clusters)) {
                results.add(r);
                if (!r.succeeded()) failed.add(r.action().cluster());
            }
        }
        return results;
    }

    /**
     * Asks the API servers what the stage's actions would do, changing nothing: the server's own
     * validation errors and defaults show before anything is applied. Clusters that cannot dry-run
     * answer {@code Skipped}.
     */
    List<ActionResult> dryRun(Stage stage, Set<String> clusters);

    @Override void close();
}
