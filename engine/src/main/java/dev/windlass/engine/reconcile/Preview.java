package dev.windlass.engine.reconcile;

import dev.windlass.policy.model.Cluster;
import dev.windlass.policy.model.DesiredState;
import dev.windlass.policy.observe.ClusterObservation;
import dev.windlass.policy.observe.DesiredObjects;
import dev.windlass.policy.observe.KindRef;
import dev.windlass.policy.observe.ObservedState;
import dev.windlass.policy.plan.Plan;
import dev.windlass.policy.plan.Planner;
import dev.windlass.policy.source.Snapshot;
import dev.windlass.policy.state.EngineState;
import java.time.Instant;
import dev.windlass.policy.plan.ActionResult;
import dev.windlass.policy.plan.Stage;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.TreeSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The plan a commit would cause, without applying or recording anything: what {@code windlass plan}
 * prints. Clusters reachable from here are observed live; sandbox clusters (which live inside a running
 * engine) are taken as the status branch recorded them.
 */
public final class Preview {
    private Preview() {}

    /** @param dryRun what the API servers said about each action (Skipped where a cluster cannot dry-run) */
    public record Result(DesiredState desired, Plan plan, List<ActionResult> dryRun, boolean usedRecordedState) {
        public boolean rejectedByServer() { return dryRun.stream().anyMatch(r -> !r.succeeded()); }
    }

    public static Result of(Snapshot snapshot, EngineState state, Fleet live, Fleet recorded, Instant now) {
        DesiredState desired = dev.windlass.engine.render.AppRendering.shared().read(snapshot, state);
        Map<String, Cluster> real = new TreeMap<>();
        desired.clusters().forEach((n, c) -> { if (!(c.connection() instanceof Cluster.Sandbox)) real.put(n, c); });
        live.connect(real);
        Map<String, Set<KindRef>> kinds = Kinds.toObserve(desired, state);
        Map<String, Set<KindRef>> liveKinds = new TreeMap<>();
        Map<String, Set<KindRef>> recordedKinds = new TreeMap<>();
        kinds.forEach((c, k) -> (real.containsKey(c) ? liveKinds : recordedKinds).put(c, k));
        Map<String, ClusterObservation> all = new HashMap<>();
        if (!liveKinds.isEmpty()) all.putAll(live.observe(liveKinds, Map.of(), DesiredObjects.of(desired)).clusters());
        if (!recordedKinds.isEmpty()) all.putAll(recorded.observe(recordedKinds).clusters());
        Plan plan = Planner.plan(desired, new ObservedState(all), state, now);
        List<ActionResult> dryRun = new ArrayList<>();
        for (Stage stage : plan.stages()) {
            Set<String> liveClusters = new TreeSet<>(stage.clusters());
            liveClusters.retainAll(real.keySet());
            Set<String> recordedClusters = new TreeSet<>(stage.clusters());
            recordedClusters.removeAll(real.keySet());
            if (!liveClusters.isEmpty()) dryRun.addAll(live.dryRun(stage, liveClusters));
            if (!recordedClusters.isEmpty()) dryRun.addAll(recorded.dryRun(stage, recordedClusters));
        }
        return new Result(desired, plan, dryRun, !recordedKinds.isEmpty());
    }
}
