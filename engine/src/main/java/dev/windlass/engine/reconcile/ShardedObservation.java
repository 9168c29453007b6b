package dev.windlass.engine.reconcile;

import dev.windlass.policy.model.Cluster;
import dev.windlass.policy.observe.ClusterObservation;
import dev.windlass.policy.observe.DesiredObjects;
import dev.windlass.policy.observe.KindRef;
import dev.windlass.policy.observe.ObservedState;
import dev.windlass.policy.shard.ShardScope;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Predicate;

/**
 * What a replica holding some shards sees of the fleet: its own clusters observed live, every other cluster as the status
 * branch recorded it (its owner records it every pass), so the pass plans the whole fleet, and fleet-wide rules (outage
 * threshold, failover concurrency, rollout waves) count every cluster. Nothing is remediated from a record.
 */
final class ShardedObservation {
    private ShardedObservation() {}

    /** The clusters this replica connects to: its own. */
    static Map<String, Cluster> owned(Map<String, Cluster> clusters, ShardScope scope) {
        Map<String, Cluster> out = new TreeMap<>();
        clusters.forEach((name, c) -> { if (scope.owns(name)) out.put(name, c); });
        return out;
    }

    /**
     * Observes the clusters {@code isLive} accepts through {@code live} (with their remediation targets and server-side
     * comparisons), the others through {@code recorded}. Also what {@link RoutedFleet} does for plans made outside the engine.
     */
    static ObservedState observe(Fleet live, Fleet recorded, Predicate<String> isLive, Map<String, Set<KindRef>> kinds,
                                 Map<String, Set<KindRef>> targets, DesiredObjects desired) {
        Map<String, Set<KindRef>> ownKinds = new TreeMap<>();
        Map<String, Set<KindRef>> otherKinds = new TreeMap<>();
        kinds.forEach((c, k) -> (isLive.test(c) ? ownKinds : otherKinds).put(c, k));
        Map<String, Set<KindRef>> ownTargets = new TreeMap<>();
        targets.forEach((c, k) -> { if (isLive.test(c)) ownTargets.put(c, k); });
        Map<String, ClusterObservation> all = new HashMap<>();
        if (!ownKinds.isEmpty()) all.putAll(live.observe(ownKinds, ownTargets, desired).clusters());
        if (!otherKinds.isEmpty()) all.putAll(recorded.observe(otherKinds).clusters());
        return new ObservedState(all);
    }
}
