package dev.windlass.engine.reconcile;

import dev.windlass.policy.model.Cluster;
import dev.windlass.policy.observe.DesiredObjects;
import dev.windlass.policy.observe.KindRef;
import dev.windlass.policy.observe.ObservedState;
import dev.windlass.policy.plan.ActionResult;
import dev.windlass.policy.plan.Stage;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * For plans made outside a running engine: clusters reachable from here are observed live, the others (sandbox
 * clusters, which live inside a running engine) as the status branch recorded them. Read-only: it never executes.
 */
public final class RoutedFleet implements Fleet {
    private final Fleet live;
    private final Fleet recorded;
    private final Set<String> liveClusters = new TreeSet<>();

    public RoutedFleet(Fleet live, Fleet recorded) {
        this.live = live;
        this.recorded = recorded;
    }

    /** Connects the clusters that are not sandbox clusters; the others are read from the record. */
    @Override public void connect(Map<String, Cluster> clusters) {
        Map<String, Cluster> real = new TreeMap<>();
        clusters.forEach((n, c) -> { if (!(c.connection() instanceof Cluster.Sandbox)) real.put(n, c); });
        live.connect(real);
        liveClusters.clear();
        liveClusters.addAll(real.keySet());
    }

    public boolean usesRecord(Set<String> clusters) { return !liveClusters.containsAll(clusters); }

    @Override public ObservedState observe(Map<String, Set<KindRef>> kinds) {
        return observe(kinds, Map.of());
    }

    @Override public ObservedState observe(Map<String, Set<KindRef>> kinds, Map<String, Set<KindRef>> targets) {
        return observe(kinds, targets, DesiredObjects.NONE);
    }

    @Override public ObservedState observe(Map<String, Set<KindRef>> kinds, Map<String, Set<KindRef>> targets, DesiredObjects desired) {
        return ShardedObservation.observe(live, recorded, liveClusters::contains, kinds, targets, desired);
    }

    @Override public List<ActionResult> execute(Stage stage, Set<String> clusters) {
        throw new UnsupportedOperationException("a routed fleet only plans");
    }

    @Override public List<ActionResult> dryRun(Stage stage, Set<String> clusters) {
        List<ActionResult> out = new ArrayList<>();
        Set<String> l = new TreeSet<>(clusters);
        l.retainAll(liveClusters);
        Set<String> r = new TreeSet<>(clusters);
        r.removeAll(liveClusters);
        if (!l.isEmpty()) out.addAll(live.dryRun(stage, l));
        if (!r.isEmpty()) out.addAll(recorded.dryRun(stage, r));
        return out;
    }

    @Override public void close() {}
}
