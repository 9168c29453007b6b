package dev.windlass.policy.remediation;

import dev.windlass.policy.suspension.Hold;
import dev.windlass.policy.model.Cluster;
import dev.windlass.policy.model.DesiredState;
import dev.windlass.policy.model.RemediationPolicy;
import dev.windlass.policy.observe.ClusterObservation;
import dev.windlass.policy.observe.KindRef;
import dev.windlass.policy.observe.ObservedState;
import dev.windlass.policy.plan.Action;
import dev.windlass.policy.state.AppStatus;
import dev.windlass.policy.state.ClusterStatus;
import dev.windlass.policy.state.ClusterStep;
import dev.windlass.policy.state.EngineState;
import dev.windlass.policy.state.RemediationRecord;
import dev.windlass.policy.state.RemediationRecord.State;
import dev.windlass.policy.suspension.Suspensions;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Decides remediation: which watched targets are unhealthy, whether the policy's gate and the quorum allow acting,
 * and the next step for each target. Steps are taken one per pass: first the mark (annotation {@value #MARK} plus a
 * record), which is an attempt, then, for actions other than Annotate, the action itself, as part of that attempt. A
 * further attempt waits retryPeriodSeconds from the last and is made at most maxRetry times; then the target is given
 * up, and not even marked again until it has been healthy for minHealthyPeriodSeconds, which starts its count over. A
 * target healthy again is unmarked before anything else is done, and counts as in flight until its mark is seen gone; a
 * node Windlass cordoned keeps its mark until, healthy for minHealthyPeriodSeconds, it is uncordoned. Nothing is done on
 * a cluster that is suspended or frozen, or while a rollout step is under way there.
 */
public final class Remediations {
    public static final String MARK = "windlass.dev/unhealthy";
    public static final String RESTARTED_AT = "windlass.dev/restartedAt";
    public static final String BLOCKED = "RemediationBlocked";

    private Remediations() {}

    /** One cluster's remediation after this pass's decisions. */
    public record ClusterRemediation(List<RemediationRecord> records, RemediationBlock blockedReason, String blocked) {
        public ClusterRemediation { records = List.copyOf(records); }
    }

    /** Every cluster's remediation and the actions it takes now. */
    public record RemediationDecision(Map<String, ClusterRemediation> clusters, List<Action> actions) {
        public RemediationDecision {
            clusters = Map.copyOf(clusters);
            actions = List.copyOf(actions);
        }
    }

    /** The kinds each cluster's remediation policies watch: observed, every object of them, each pass. */
    public static Map<String, Set<KindRef>> watched(DesiredState desired) {
        Map<String, Set<KindRef>> out = new TreeMap<>();
        for (Cluster c : desired.clusters().values()) {
            for (RemediationPolicy p : desired.remediationPolicies().values()) {
                if (p.clusterSelector().matches(c.labels())) {
                    out.computeIfAbsent(c.name(), k -> new TreeSet<>()).add(new KindRef(p.target().apiVersion(), p.target().kind()));
                }
            }
        }
        return out;
    }

    public static RemediationDecision decide(DesiredState desired, ObservedState observed, EngineState state, Suspensions suspensions, Instant now) {
        Map<String, ClusterRemediation> clusters = new TreeMap<>();
        List<Action> actions = new ArrayList<>();
        for (Cluster cluster : desired.clusters().values()) {
            ClusterStatus prev = state.clusters().get(cluster.name());
            List<RemediationRecord> before = prev == null ? List.of() : prev.remediationRecords();
            List<RemediationPolicy> policies = desired.remediationPolicies().values().stream()
                    .filter(p -> p.clusterSelector().matches(cluster.labels())).toList();
            if (policies.isEmpty()) continue;
            ClusterObservation obs = observed.cluster(cluster.name());
            if (!obs.reachable()) {
                clusters.put(cluster.name(), new ClusterRemediation(before, null, null));
                continue;
            }
            Hold hold = suspensions.hold("", Map.of(), cluster.name());
            String rollout = rolloutOn(cluster.name(), state);
            List<RemediationRecord> records = new ArrayList<>();
            FirstBlock blocked = new FirstBlock();
            for (RemediationPolicy policy : policies) {
                new PolicyPass(policy, cluster.name(), obs, before, hold, rollout, now, records, actions, blocked).run();
            }
            clusters.put(cluster.name(), new ClusterRemediation(records, blocked.reason(), blocked.text()));
        }
        return new RemediationDecision(clusters, actions);
    }

    /** The application whose rollout step is under way on the cluster, or null. */
    private static String rolloutOn(String cluster, EngineState state) {
        for (AppStatus a : state.apps().values()) {
            if (a.rollout() == null || !a.rollout().active()) continue;
            ClusterStep s = a.rollout().step(cluster);
            if (s != null && s.state() == ClusterStep.State.Progressing) return a.name();
        }
        return null;
    }

    /** Unhealthy past its timeout: Unhealthy, Marked, Remediating or GaveUp. */
    static boolean isUnhealthy(State state) {
        return state == State.Unhealthy || state == State.Marked || state == State.Remediating || state == State.GaveUp;
    }

    /** Counted as unhealthy by the gates: unhealthy past the timeout, or missing. */
    static boolean counted(RemediationRecord r) { return isUnhealthy(r.state()) || r.in(State.Missing); }
}
