package dev.windlass.policy.review;

import dev.windlass.policy.failover.AppFailover;
import dev.windlass.policy.model.Cluster;
import dev.windlass.policy.model.DesiredState;
import dev.windlass.policy.model.RemediationPolicy;
import dev.windlass.policy.observe.ClusterObservation;
import dev.windlass.policy.observe.KindRef;
import dev.windlass.policy.observe.ObservedState;
import dev.windlass.policy.plan.HeldAction;
import dev.windlass.policy.plan.HoldReason;
import dev.windlass.policy.plan.Plan;
import dev.windlass.policy.state.EvictionTask;
import dev.windlass.policy.state.RolloutState;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * What a branch does beyond object changes, found by comparing the plan of its merge with the plan of the main
 * branch against the same observation: holds, rollout gates, failovers it would trigger or cancel, and remediation
 * policies whose blast radius it changes. One sentence each, in a fixed order.
 */
public final class PolicyEffects {
    private PolicyEffects() {}

    public static List<String> of(ReviewInput in) {
        List<String> out = new ArrayList<>();
        holds(in.headPlan(), out);
        rollouts(in.basePlan(), in.headPlan(), out);
        failovers(in.basePlan(), in.headPlan(), out);
        remediation(in.base(), in.head(), in.observed(), out);
        return out;
    }

    /** Changes a freeze or a suspension holds (other holds, such as a prune waiting for health, are ordinary sequencing). */
    private static void holds(Plan head, List<String> out) {
        Map<HoldReason, TreeSet<String>> clusters = new TreeMap<>(Comparator.comparing(HoldReason::text));
        Map<HoldReason, Integer> counts = new HashMap<>();
        for (HeldAction h : ReviewWaves.of(head).held()) {
            if (!(h.reason() instanceof HoldReason.Suspended)) continue;
            clusters.computeIfAbsent(h.reason(), k -> new TreeSet<>()).add(h.action().cluster());
            counts.merge(h.reason(), 1, Integer::sum);
        }
        clusters.forEach((why, where) -> out.add("**Held** " + counts.get(why) + (counts.get(why) == 1 ? " change" : " changes")
                + " on " + String.join(", ", where) + ": " + why.text()));
    }

    private static void rollouts(Plan base, Plan head, List<String> out) {
        for (var e : new TreeMap<>(head.rollouts()).entrySet()) {
            RolloutState r = e.getValue();
            RolloutState before = base == null ? null : base.rollouts().get(e.getKey());
            if (before != null && Objects.equals(before.revision(), r.revision())) continue;
            if (!r.active()) continue;
            out.add("**Gated by rollout** " + e.getKey() + " " + r.revision() + " rolls out in " + r.waves()
                    + (r.waves() == 1 ? " wave" : " waves") + " (RolloutPolicy " + r.policy() + "): " + r.gate() + ".");
        }
    }

    private static void failovers(Plan base, Plan head, List<String> out) {
        Map<String, AppFailover> was = base == null ? Map.of() : base.failovers();
        for (var e : new TreeMap<>(head.failovers()).entrySet()) {
            AppFailover now = e.getValue();
            AppFailover before = was.get(e.getKey());
            for (EvictionTask t : now.started()) {
                boolean alsoOnMain = before != null && before.started().stream().anyMatch(b -> b.fromCluster().equals(t.fromCluster()));
                if (!alsoOnMain) {
                    out.add("**Would trigger a failover** " + e.getKey() + ": " + t.fromCluster() + " → "
                            + String.join(", ", t.clustersAfterFailover()) + " (" + t.reason() + "), old copy " + t.purgeMode() + ".");
                }
            }
            if (now.blocked() != null && (before == null || before.blocked() == null)) {
                out.add("**Failover blocked** " + e.getKey() + " (" + now.blockedReason() + "): " + now.blocked());
            }
        }
        for (var e : new TreeMap<>(was).entrySet()) {
            AppFailover now = head.failovers().get(e.getKey());
            for (EvictionTask t : e.getValue().started()) {
                boolean stillStarts = now != null && now.started().stream().anyMatch(b -> b.fromCluster().equals(t.fromCluster()));
                if (!stillStarts) {
                    out.add("**Would cancel a failover** " + e.getKey() + ": the main branch moves it off " + t.fromCluster()
                            + " in this pass (" + t.reason() + "); with this branch it stays.");
                }
            }
            for (EvictionTask t : e.getValue().memory().evictions()) {
                if (!t.inFlight() || now != null) continue;
                out.add("**Would cancel a failover** " + e.getKey() + ": the eviction from " + t.fromCluster()
                        + " in flight since " + t.createdAt() + " loses its policy or application.");
            }
        }
    }

    /** For each remediation policy the branch adds or changes: how many targets its triggerIf lets it act on, per cluster. */
    private static void remediation(DesiredState base, DesiredState head, ObservedState observed, List<String> out) {
        Map<String, RemediationPolicy> was = base == null ? Map.of() : base.remediationPolicies();
        for (RemediationPolicy p : head.remediationPolicies().values()) {
            RemediationPolicy before = was.get(p.name());
            if (before != null && sameRules(before, p)) continue;
            for (Cluster c : head.clusters().values()) {
                if (!p.clusterSelector().matches(c.labels())) continue;
                ClusterObservation obs = observed == null ? null : observed.cluster(c.name());
                KindRef kind = new KindRef(p.target().apiVersion(), p.target().kind());
                if (obs == null || !obs.reachable() || !obs.targets().containsKey(kind)) {
                    out.add("**Remediation** " + p.name() + " on " + c.name() + ": its " + p.target().kind()
                            + " targets were not observed, so its reach there is unknown.");
                    continue;
                }
                int total = (int) obs.targets().get(kind).stream()
                        .filter(t -> p.target().selector() == null || p.target().selector().matches(t.labels())).count();
                if (total == 0) continue;
                int allows = allows(p.triggerIf(), total);
                String sentence = "**Remediation** " + p.name() + " on " + c.name() + ": triggerIf " + (before == null ? "" : "now ")
                        + "allows " + allows + " of " + total + " " + p.target().kind() + (total == 1 ? "" : "s");
                if (before != null && before.clusterSelector().matches(c.labels())) {
                    int was1 = allows(before.triggerIf(), total);
                    if (was1 != allows) sentence += " (was " + was1 + ")";
                }
                int quorum = total / 2 + 1;
                if (total - allows < quorum) {
                    sentence += " — below quorum: remediating " + allows + " leaves " + (total - allows) + " of " + total + ", quorum needs " + quorum
                            + (p.quorum() ? "; quorum: true still acts on one at a time and never below quorum"
                                    : "; quorum is not checked (quorum: false), so a consensus group could lose it");
                }
                out.add(sentence + ".");
            }
        }
        for (RemediationPolicy p : was.values()) {
            if (!head.remediationPolicies().containsKey(p.name())) out.add("**Remediation** " + p.name() + " is removed: its targets are no longer watched, marks stay until removed by hand.");
        }
    }

    /** The most unhealthy targets out of {@code total} that the gate lets remediation act with. */
    static int allows(RemediationPolicy.Gate gate, int total) {
        if (gate instanceof RemediationPolicy.AtMost a) return Math.min(total, a.max().of(total));
        if (gate instanceof RemediationPolicy.InRange r) return Math.min(total, r.max());
        return total;
    }

    private static boolean sameRules(RemediationPolicy a, RemediationPolicy b) {
        return a.clusterSelector().equals(b.clusterSelector()) && a.target().equals(b.target()) && a.triggerIf().equals(b.triggerIf())
                && a.quorum() == b.quorum() && a.action() == b.action() && a.maxInFlight() == b.maxInFlight()
                && a.unhealthyConditions().equals(b.unhealthyConditions());
    }
}
