package dev.windlass.engine.reconcile;

import dev.windlass.policy.model.Cluster;
import dev.windlass.policy.observe.DesiredObjects;
import dev.windlass.policy.observe.KindRef;
import dev.windlass.policy.observe.ObservedState;
import dev.windlass.policy.plan.ActionResult;
import dev.windlass.policy.plan.Stage;
import dev.windlass.policy.shard.ShardScope;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Supplier;

/**
 * What reviews see of the fleet on a replica that holds some shards: its own clusters live, as its passes do, and the
 * other shards' clusters as their owners last recorded them (a branch's plan then names every cluster as it stands,
 * not the others as unreachable). Dry runs go to its own clusters only. Without shards, it is the engine's fleet.
 * Read-only: it never executes.
 */
final class ShardedReviewFleet implements Fleet {
    private final Fleet live;
    private final Supplier<ShardScope> scope;
    private final Supplier<Fleet> recorded;

    /** @param scope the shards the replica's last pass acted for (null without shards); @param recorded the status branch's view */
    ShardedReviewFleet(Fleet live, Supplier<ShardScope> scope, Supplier<Fleet> recorded) {
        this.live = live;
        this.scope = scope;
        this.recorded = recorded;
    }

    @Override public void connect(Map<String, Cluster> clusters) {
        ShardScope s = scope.get();
        live.connect(s == null ? clusters : ShardedObservation.owned(clusters, s));
    }

    @Override public ObservedState observe(Map<String, Set<KindRef>> kinds) { return observe(kinds, Map.of()); }

    @Override public ObservedState observe(Map<String, Set<KindRef>> kinds, Map<String, Set<KindRef>> targets) {
        return observe(kinds, targets, DesiredObjects.NONE);
    }

    @Override public ObservedState observe(Map<String, Set<KindRef>> kinds, Map<String, Set<KindRef>> targets, DesiredObjects desired) {
        ShardScope s = scope.get();
        if (s == null) return live.observe(kinds, targets, desired);
        return ShardedObservation.observe(live, recorded.get(), s::owns, kinds, targets, desired);
    }

    @Override public List<ActionResult> execute(Stage stage, Set<String> clusters) {
        throw new UnsupportedOperationException("reviews only plan");
    }

    @Override public List<ActionResult> dryRun(Stage stage, Set<String> clusters) {
        ShardScope s = scope.get();
        if (s == null) return live.dryRun(stage, clusters);
        Set<String> own = new TreeSet<>();
        Set<String> others = new TreeSet<>();
        clusters.forEach(c -> (s.owns(c) ? own : others).add(c));
        List<ActionResult> out = new ArrayList<>();
        if (!own.isEmpty()) out.addAll(live.dryRun(stage, own));
        if (!others.isEmpty()) out.addAll(recorded.get().dryRun(stage, others));
        return out;
    }

    @Override public void close() {}
}
