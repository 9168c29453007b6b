package dev.windlass.policy.shard;

import dev.windlass.policy.plan.Action;
import dev.windlass.policy.plan.HeldAction;
import dev.windlass.policy.plan.HoldReason;
import dev.windlass.policy.plan.Plan;
import dev.windlass.policy.plan.Stage;
import dev.windlass.policy.state.AppStatus;
import dev.windlass.policy.state.ClusterStatus;
import dev.windlass.policy.state.EngineState;
import dev.windlass.policy.state.TargetStatus;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * What a replica holding some shards acts on and records in one pass.
 *
 * <ul>
 *   <li>It observes and writes only the clusters of its shards ({@link #owns}).</li>
 *   <li>It records, of the state its pass computed, only what its shards own: its clusters' files and its clusters' targets in
 *       each application's file ({@link #merge}). Everything else is kept as read from the status branch.</li>
 *   <li>Fleet-wide decisions are the coordinator's: the holder of shard {@value #COORDINATOR}. They live in each application's
 *       own part of its file (rollout steps and waves, evictions, placement, revision and conditions), and only the
 *       coordinator records them. A replica that is not the coordinator and whose plan would start a rollout step or an
 *       eviction records none of it and leaves the actions of those applications for a later pass
 *       ({@link #awaitingCoordinator}, {@link #holdAwaiting}): once the coordinator has recorded the decision, the owning shard
 *       acts on the record like any recorded step.</li>
 * </ul>
 *
 * @param held       the shards whose lease this replica holds, with its write fence open, at the start of the pass
 * @param assignment which shard owns each cluster Git lists
 */
public record ShardScope(SortedSet<Integer> held, ShardAssignment assignment) {
    /** The shard whose holder makes the fleet-wide decisions. */
    public static final int COORDINATOR = 0;

    public ShardScope {
        held = Collections.unmodifiableSortedSet(new TreeSet<>(held));
    }

    public static ShardScope of(Set<Integer> held, ShardAssignment assignment) {
        return new ShardScope(new TreeSet<>(held), assignment);
    }

    public boolean coordinator() { return held.contains(COORDINATOR); }

    /** Whether this replica observes and writes the cluster: its shard is one this replica holds. */
    public boolean owns(String cluster) { return held.contains(assignment.ownerOf(cluster)); }

    /**
     * Whether this replica records the cluster's file and targets: a cluster it owns, or, for the coordinator, one Git no
     * longer lists (no shard owns it; the coordinator clears what is left of it).
     */
    public boolean records(String cluster) {
        int owner = assignment.ownerOf(cluster);
        return owner < 0 ? coordinator() : held.contains(owner);
    }

    /** The clusters Git lists that this replica owns. */
    public SortedSet<String> clusters() {
        SortedSet<String> out = new TreeSet<>();
        assignment.owners().forEach((c, s) -> { if (held.contains(s)) out.add(c); });
        return out;
    }

    /**
     * The applications whose fleet-wide record the plan's decisions would change ({@code intent} is the state with them
     * recorded), when this replica is not the coordinator: it must neither record those decisions nor act on them.
     */
    public SortedSet<String> awaitingCoordinator(EngineState before, EngineState intent) {
        SortedSet<String> out = new TreeSet<>();
        if (coordinator()) return out;
        intent.apps().forEach((name, app) -> {
            if (!Objects.equals(app, before.apps().get(name))) out.add(name);
        });
        return out;
    }

    /** What this replica may record of a plan's intent: the state as before, but for its own clusters' files (remediation records). */
    public EngineState intentToRecord(EngineState before, EngineState intent) {
        return coordinator() ? merge(before, intent) : merge(before, EngineState.of(intent.source(), before.apps(), intent.clusters(), intent.policyFiles()));
    }

    /** Why an application's actions wait on a replica that is not the coordinator: what its targets say meanwhile. */
    public static final HoldReason AWAITING = new HoldReason.AwaitsCoordinator(COORDINATOR);

    /**
     * The plan with every action of the applications {@code awaiting} the coordinator held ({@link #AWAITING}) instead of
     * staged: this replica's record of their targets on its clusters says they wait, rather than what the unapplied change
     * leaves them (a new object missing, say). The plan's hash stays the one of the plan as made: the decisions are the same.
     */
    public Plan holdAwaiting(Plan plan, Set<String> awaiting) {
        if (awaiting.isEmpty()) return plan;
        List<Stage> stages = new ArrayList<>();
        List<HeldAction> held = new ArrayList<>(plan.held());
        for (Stage s : plan.stages()) {
            List<Action> go = new ArrayList<>();
            for (Action a : s.actions()) {
                if (awaiting.contains(a.app())) held.add(new HeldAction(a, AWAITING));
                else go.add(a);
            }
            if (!go.isEmpty()) stages.add(new Stage(s.name(), s.gate(), go));
        }
        return new Plan(plan.sourceCommit(), stages, held, plan.apps(), plan.diagnostics(), plan.hash(), plan.rollouts(), plan.recordFirst(),
                plan.failovers(), plan.failoverHold(), plan.remediation());
    }

    /** The stages this replica executes: actions on its own clusters (those of applications awaiting the coordinator are held). */
    public List<Stage> stages(Plan plan) {
        List<Stage> out = new ArrayList<>();
        for (Stage s : plan.stages()) {
            List<Action> mine = s.actions().stream().filter(a -> owns(a.cluster())).toList();
            if (!mine.isEmpty()) out.add(new Stage(s.name(), s.gate(), mine));
        }
        return out;
    }

    /**
     * The state this replica records: {@code fresh} (as read from the status branch) with what its shards own taken from
     * {@code next} (what its pass computed). Clusters' files and applications' targets it {@link #records} come from
     * {@code next}, the others from {@code fresh}; each application's own part (rollout, failover, placement, revision,
     * conditions) and the source commit come from {@code next} on the coordinator and from {@code fresh} elsewhere (from
     * {@code next} only for an application the status branch does not hold yet).
     */
    public EngineState merge(EngineState fresh, EngineState next) {
        Map<String, ClusterStatus> clusters = new TreeMap<>();
        for (String name : union(fresh.clusters().keySet(), next.clusters().keySet())) {
            ClusterStatus c = (records(name) ? next : fresh).clusters().get(name);
            if (c != null) clusters.put(name, c);
        }
        Map<String, AppStatus> apps = new TreeMap<>();
        for (String name : union(fresh.apps().keySet(), next.apps().keySet())) {
            AppStatus f = fresh.apps().get(name);
            AppStatus n = next.apps().get(name);
            List<TargetStatus> targets = new ArrayList<>();
            for (String cluster : clustersOf(n, f)) {
                TargetStatus t = records(cluster) ? (n == null ? null : n.target(cluster)) : (f == null ? null : f.target(cluster));
                if (t != null) targets.add(t);
            }
            AppStatus base = coordinator() ? (n != null ? n : targets.isEmpty() ? null : f) : (f != null ? f : n);
            if (base == null) continue;
            if (!coordinator() && f == null && targets.isEmpty()) continue;
            apps.put(name, withTargets(base, targets));
        }
        EngineState side = coordinator() ? next : fresh;
        return EngineState.of(side.source() != null ? side.source() : next.source(), apps, clusters, side.policyFiles());
    }

    private static AppStatus withTargets(AppStatus a, List<TargetStatus> targets) {
        if (a.targets().equals(targets)) return a;
        return a.withTargets(targets);
    }

    /** The clusters of both records' targets, in the order of the first, then the second's others in theirs. */
    private static Set<String> clustersOf(AppStatus first, AppStatus second) {
        Set<String> out = new java.util.LinkedHashSet<>();
        if (first != null) for (TargetStatus t : first.targets()) out.add(t.cluster());
        if (second != null) for (TargetStatus t : second.targets()) out.add(t.cluster());
        return out;
    }

    private static SortedSet<String> union(Set<String> a, Set<String> b) {
        SortedSet<String> out = new TreeSet<>(a);
        out.addAll(b);
        return out;
    }
}
