package dev.windlass.policy.remediation;

import dev.windlass.policy.model.Application;
import dev.windlass.policy.model.Cluster;
import dev.windlass.policy.model.DesiredState;
import dev.windlass.policy.model.Manifest;
import dev.windlass.policy.model.ObjectRef;
import dev.windlass.policy.model.RemediationPolicy;
import dev.windlass.policy.model.RemediationPolicy.UnhealthyCondition;
import dev.windlass.policy.observe.ClusterObservation;
import dev.windlass.policy.observe.KindRef;
import dev.windlass.policy.observe.ObservedState;
import dev.windlass.policy.observe.ObservedTarget;
import dev.windlass.policy.plan.Action;
import dev.windlass.policy.plan.Operation;
import dev.windlass.policy.state.AppStatus;
import dev.windlass.policy.state.ClusterStatus;
import dev.windlass.policy.state.ClusterStep;
import dev.windlass.policy.state.EngineState;
import dev.windlass.policy.state.RemediationRecord;
import dev.windlass.policy.suspension.Suspensions;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Decides remediation: which watched targets are unhealthy, whether the policy's gate and the quorum allow acting,
 * and the next step for each target. Steps are taken one per pass: first the mark (annotation
 * {@value #MARK} plus a record), then, for actions other than Annotate, the action itself, retried after
 * retryPeriodSeconds at most maxRetry times, then given up. A target healthy again is unmarked; healthy for
 * minHealthyPeriodSeconds, its attempts start over. Nothing is done on a cluster that is suspended or frozen, or
 * while a rollout step is under way there.
 */
public final class Remediations {
    public static final String MARK = "windlass.dev/unhealthy";
    public static final String RESTARTED_AT = "windlass.dev/restartedAt";
    public static final String BLOCKED = "RemediationBlocked";

    private Remediations() {}

    /** One cluster's remediation after this pass's decisions. */
    public record ClusterRemediation(List<RemediationRecord> records, String blockedReason, String blocked) {
        public ClusterRemediation { records = List.copyOf(records); }
    }

    /** Every cluster's remediation and the actions it takes now. */
    public record Decision(Map<String, ClusterRemediation> clusters, List<Action> actions) {
        public Decision {
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

    public static Decision decide(DesiredState desired, ObservedState observed, EngineState state, Suspensions suspensions, Instant now) {
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
            String hold = suspensions.heldBy("", Map.of(), cluster.name());
            String rollout = rolloutOn(cluster.name(), state);
            List<RemediationRecord> records = new ArrayList<>();
            String[] blocked = {null, null};
            for (RemediationPolicy policy : policies) {
                new PolicyPass(policy, cluster.name(), obs, before, hold, rollout, now, records, actions, blocked).run();
            }
            clusters.put(cluster.name(), new ClusterRemediation(records, blocked[0], blocked[1]));
        }
        return new Decision(clusters, actions);
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

    /** One policy on one cluster: every target's record, then at most the allowed actions. */
    private static final class PolicyPass {
        private final RemediationPolicy policy;
        private final String cluster;
        private final ClusterObservation obs;
        private final List<RemediationRecord> before;
        private final String hold;
        private final String rollout;
        private final Instant now;
        private final List<RemediationRecord> out;
        private final List<Action> actions;
        private final String[] blocked;

        PolicyPass(RemediationPolicy policy, String cluster, ClusterObservation obs, List<RemediationRecord> before, String hold,
                   String rollout, Instant now, List<RemediationRecord> out, List<Action> actions, String[] blocked) {
            this.policy = policy;
            this.cluster = cluster;
            this.obs = obs;
            this.before = before;
            this.hold = hold;
            this.rollout = rollout;
            this.now = now;
            this.out = out;
            this.actions = actions;
            this.blocked = blocked;
        }

        void run() {
            KindRef kind = new KindRef(policy.target().apiVersion(), policy.target().kind());
            if (!obs.targets().containsKey(kind)) {
                // Not listed this pass (the cluster refused the LIST, or a plan made from recorded state): no decision.
                before.stream().filter(r -> r.policy().equals(policy.name())).forEach(out::add);
                return;
            }
            Map<String, ObservedTarget> seen = new TreeMap<>();
            for (ObservedTarget t : obs.targets().getOrDefault(kind, List.of())) {
                if (policy.target().selector() == null || policy.target().selector().matches(t.labels())) seen.put(t.id(), t);
            }
            Map<String, RemediationRecord> prev = new HashMap<>();
            before.stream().filter(r -> r.policy().equals(policy.name())).forEach(r -> prev.put(r.target(), r));

            Map<String, RemediationRecord> next = new LinkedHashMap<>();
            seen.forEach((id, t) -> next.put(id, assess(t, prev.get(id))));
            // Expected targets that are gone count as unhealthy, until as many new ones have joined.
            long joined = seen.keySet().stream().filter(id -> !prev.containsKey(id)).count();
            // A target this policy deleted was deleted only after its replacement joined: it is simply gone.
            List<RemediationRecord> gone = prev.values().stream().filter(r -> !seen.containsKey(r.target()))
                    .filter(r -> !(r.state().equals("Remediating") && policy.action() == RemediationPolicy.Action.Delete))
                    .sorted(Comparator.comparing(RemediationRecord::target)).toList();
            for (RemediationRecord r : gone.subList((int) Math.min(joined, gone.size()), gone.size())) {
                next.put(r.target(), with(r, "Missing", "expected and not seen; counts as unhealthy until a new one joins"));
            }

            int total = next.size();
            int unhealthy = (int) next.values().stream().filter(Remediations::counted).count();
            List<String> order = next.values().stream().filter(r -> isUnhealthy(r.state()) && seen.containsKey(r.target()))
                    .sorted(Comparator.comparing((RemediationRecord r) -> r.unhealthySince() == null ? "" : r.unhealthySince())
                            .thenComparing(RemediationRecord::target))
                    .map(RemediationRecord::target).toList();
            for (String id : order) {
                RemediationRecord r = next.get(id);
                if (r.state().equals("GaveUp")) continue;
                String why = gate(total, unhealthy, next, id);
                if (why != null) {
                    next.put(id, with(r, r.state(), why));
                    continue;
                }
                Map<String, String> firstSeen = new HashMap<>();
                next.values().forEach(x -> firstSeen.put(x.target(), x.firstSeen()));
                next.put(id, step(r, seen.get(id), seen, firstSeen));
            }
            // Healthy again: the mark comes off.
            seen.forEach((id, t) -> {
                RemediationRecord r = next.get(id);
                if (!isUnhealthy(r.state()) && t.annotations().containsKey(MARK)) {
                    actions.add(patch(t, Map.of("metadata", Map.of("annotations", nullValue(MARK))), "healthy again: the unhealthy mark is removed"));
                }
            });
            out.addAll(next.values());
        }

        /** What blocks acting on target {@code id} now, in words with the numbers, or null. */
        private String gate(int total, int unhealthy, Map<String, RemediationRecord> next, String id) {
            long inFlight = next.values().stream().filter(r -> r.inFlight() && !r.target().equals(id)).count();
            boolean alreadyActing = next.get(id).inFlight();
            if (hold != null) return block("Suspended", "nothing is remediated on " + cluster + " while it holds: " + hold);
            if (rollout != null) return block("RolloutInProgress", "deferred: a rollout step of " + rollout + " is under way on " + cluster);
            Verdict g = Gate.allows(policy.triggerIf(), total, unhealthy);
            if (!g.allowed()) return block("TooManyUnhealthy", g.why());
            if (policy.quorum() && !alreadyActing) {
                Verdict q = Quorum.allows(total, total - unhealthy, (int) inFlight);
                if (!q.allowed()) return block("Quorum", q.why());
            } else if (!alreadyActing && inFlight >= policy.maxInFlight()) {
                return block("MaxInFlight", inFlight + " remediation(s) in flight; maxInFlight is " + policy.maxInFlight());
            }
            return null;
        }

        private String block(String reason, String why) {
            String text = policy.name() + ": " + why;
            if (blocked[0] == null) {
                blocked[0] = reason;
                blocked[1] = text;
            }
            return text;
        }

        /** The next step for an unhealthy target the gates let through. */
        private RemediationRecord step(RemediationRecord r, ObservedTarget t, Map<String, ObservedTarget> seen, Map<String, String> firstSeen) {
            if (!t.annotations().containsKey(MARK)) {
                actions.add(patch(t, Map.of("metadata", Map.of("annotations", Map.of(MARK, r.reason()))), "mark unhealthy: " + r.reason()));
                return new RemediationRecord(r.policy(), r.target(), "Marked", r.reason(), r.firstSeen(), r.unhealthySince(), null,
                        r.everHealthy(), r.markedAt() == null ? now.toString() : r.markedAt(), r.attempts(), r.lastAttemptAt(),
                        policy.action() == RemediationPolicy.Action.Annotate ? "marked; the owner remediates" : "marked; acting next pass");
            }
            if (policy.action() == RemediationPolicy.Action.Annotate) {
                return with(r, "Marked", "marked; the owner remediates");
            }
            // Attempts are paced by retryPeriodSeconds whether or not the target looked healthy in between.
            if (r.lastAttemptAt() != null && Duration.between(Instant.parse(r.lastAttemptAt()), now).toSeconds() < policy.retryPeriodSeconds()) {
                return with(r, r.state().equals("GaveUp") ? "GaveUp" : "Remediating", "attempt " + r.attempts() + " of " + policy.maxRetry()
                        + " at " + r.lastAttemptAt() + "; next no sooner than " + Instant.parse(r.lastAttemptAt()).plusSeconds(policy.retryPeriodSeconds()));
            }
            if (r.attempts() >= policy.maxRetry()) {
                String why = "still unhealthy after " + r.attempts() + (r.attempts() == 1 ? " attempt" : " attempts") + " (maxRetry "
                        + policy.maxRetry() + "); given up, nothing more is done until it is healthy: look at it by hand";
                return with(r, "GaveUp", why);
            }
            String refused = act(t, seen, r, firstSeen);
            if (refused != null) return with(r, r.state(), refused);
            int attempt = r.attempts() + 1;
            return new RemediationRecord(r.policy(), r.target(), "Remediating", r.reason(), r.firstSeen(), r.unhealthySince(), null,
                    r.everHealthy(), r.markedAt(), attempt, now.toString(), policy.action() + " attempt " + attempt + " of " + policy.maxRetry());
        }

        /** Adds the policy's action on {@code t}; or says why it cannot be taken now. */
        private String act(ObservedTarget t, Map<String, ObservedTarget> seen, RemediationRecord r, Map<String, String> firstSeen) {
            ObjectRef ref = ref(t);
            switch (policy.action()) {
                case Delete -> {
                    if (t.owners().isEmpty()) {
                        return "Delete refused: " + t.id() + " has no owner that would replace it; use action Annotate (the owner "
                                + "remediates) or CordonAndDrain";
                    }
                    String owner = t.owners().get(0);
                    // A replacement: another target of the same owner, first seen after the mark (by this engine's clock,
                    // not the server's creation time), and healthy.
                    boolean replaced = seen.values().stream().anyMatch(o -> o != t && o.owners().contains(owner) && r.markedAt() != null
                            && firstSeen.getOrDefault(o.id(), "").compareTo(r.markedAt()) >= 0 && healthy(o));
                    if (!replaced) {
                        return "waiting for " + owner + " to add a healthy replacement before " + t.id() + " is deleted (scale up before scale down)";
                    }
                    actions.add(new Action("", cluster, ref, t.kind().apiVersion(), Operation.Delete,
                            "remediation " + policy.name() + ": " + r.reason() + "; a replacement has joined", List.of(), null,
                            Application.ApplyStrategy.ClientSide, false));
                }
                case CordonAndDrain -> {
                    actions.add(patch(t, Map.of("spec", Map.of("unschedulable", true)), "cordon: " + r.reason()));
                    actions.add(new Action("", cluster, ref, t.kind().apiVersion(), Operation.Drain, "drain: " + r.reason(), List.of(), null,
                            Application.ApplyStrategy.ClientSide, false));
                }
                case Restart -> actions.add(patch(t, Map.of("spec", Map.of("template", Map.of("metadata",
                        Map.of("annotations", Map.of(RESTARTED_AT, now.toString()))))), "restart: " + r.reason()));
                case Annotate -> { }
            }
            return null;
        }

        private boolean healthy(ObservedTarget o) {
            RemediationRecord r = assess(o, null);
            return r.state().equals("Healthy");
        }

        /** The target's record at {@code now}: its clocks carried over, its state from its conditions. */
        private RemediationRecord assess(ObservedTarget t, RemediationRecord prev) {
            String firstSeen = prev == null ? now.toString() : prev.firstSeen();
            boolean wasUnhealthy = prev != null && (isUnhealthy(prev.state()) || prev.state().equals("Pending"));
            for (UnhealthyCondition u : policy.unhealthyConditions()) {
                ObservedTarget.Condition c = t.condition(u.type());
                if (c == null || !c.status().equals(u.status().name())) continue;
                // The engine's own clock, never the server's lastTransitionTime: clocks differ between hosts, and a
                // skewed one would remediate too early or never. Since when this engine has seen it unhealthy.
                String since = wasUnhealthy && prev.unhealthySince() != null ? prev.unhealthySince() : now.toString();
                long held = Duration.between(Instant.parse(since), now).toSeconds();
                String reason = u.type() + "=" + u.status() + " for " + seconds(held);
                if (held < u.timeoutSeconds()) {
                    return new RemediationRecord(policy.name(), t.id(), "Pending", reason, firstSeen, since, null,
                            prev != null && prev.everHealthy(), prev == null ? null : prev.markedAt(), prev == null ? 0 : prev.attempts(),
                            prev == null ? null : prev.lastAttemptAt(), "unhealthy for less than " + seconds(u.timeoutSeconds()));
                }
                String state = prev != null && isUnhealthy(prev.state()) ? prev.state() : "Unhealthy";
                return new RemediationRecord(policy.name(), t.id(), state, reason, firstSeen, since, null, prev != null && prev.everHealthy(),
                        prev == null ? null : prev.markedAt(), prev == null ? 0 : prev.attempts(), prev == null ? null : prev.lastAttemptAt(),
                        prev == null ? "" : prev.message());
            }
            String readyType = policy.unhealthyConditions().isEmpty() ? "Ready" : policy.unhealthyConditions().get(0).type();
            ObservedTarget.Condition ready = t.condition(readyType);
            boolean isReady = ready != null && ready.status().equals("True");
            boolean everHealthy = prev != null && prev.everHealthy() || isReady;
            if (!everHealthy && policy.startupTimeoutSeconds() > 0) {
                String created = firstSeen;  // when this engine first saw it, for the same reason
                long age = Duration.between(Instant.parse(created), now).toSeconds();
                if (age >= policy.startupTimeoutSeconds()) {
                    String state = prev != null && isUnhealthy(prev.state()) ? prev.state() : "Unhealthy";
                    return new RemediationRecord(policy.name(), t.id(), state, "never " + readyType + " within " + seconds(policy.startupTimeoutSeconds()),
                            firstSeen, created, null, false, prev == null ? null : prev.markedAt(), prev == null ? 0 : prev.attempts(),
                            prev == null ? null : prev.lastAttemptAt(), prev == null ? "" : prev.message());
                }
                return new RemediationRecord(policy.name(), t.id(), "Pending", "starting", firstSeen, null, null, false, null, 0, null,
                        "not " + readyType + " yet; startup timeout " + seconds(policy.startupTimeoutSeconds()));
            }
            String healthySince = prev != null && prev.state().equals("Healthy") && prev.healthySince() != null ? prev.healthySince() : now.toString();
            int attempts = prev == null ? 0 : prev.attempts();
            String lastAttempt = prev == null ? null : prev.lastAttemptAt();
            String message = "";
            if (attempts > 0 && Duration.between(Instant.parse(healthySince), now).toSeconds() >= policy.minHealthyPeriodSeconds()) {
                attempts = 0;
                lastAttempt = null;
            } else if (attempts > 0) {
                message = attempts + (attempts == 1 ? " attempt" : " attempts") + " so far; healthy for "
                        + seconds(policy.minHealthyPeriodSeconds()) + " starts a new retry sequence";
            }
            return new RemediationRecord(policy.name(), t.id(), "Healthy", "", firstSeen, null, healthySince, true, null, attempts, lastAttempt, message);
        }

        private Action patch(ObservedTarget t, Map<String, Object> patch, String why) {
            Manifest body = new Manifest(ref(t), t.kind().apiVersion(), patch, null, "", 0, Manifest.ApplyMode.ALWAYS,
                    Manifest.GcPolicy.NEVER, false);
            return new Action("", cluster, ref(t), t.kind().apiVersion(), Operation.Patch, "remediation " + policy.name() + ": " + why,
                    List.of(), body, Application.ApplyStrategy.ClientSide, false);
        }

        private static ObjectRef ref(ObservedTarget t) {
            return new ObjectRef(ObjectRef.groupOf(t.kind().apiVersion()), t.kind().kind(), t.namespace(), t.name());
        }
    }

    private static RemediationRecord with(RemediationRecord r, String state, String message) {
        return new RemediationRecord(r.policy(), r.target(), state, r.reason(), r.firstSeen(), r.unhealthySince(), r.healthySince(),
                r.everHealthy(), r.markedAt(), r.attempts(), r.lastAttemptAt(), message);
    }

    private static boolean isUnhealthy(String state) {
        return state.equals("Unhealthy") || state.equals("Marked") || state.equals("Remediating") || state.equals("GaveUp");
    }

    /** Counted as unhealthy by the gates: unhealthy past the timeout, or missing. */
    private static boolean counted(RemediationRecord r) { return isUnhealthy(r.state()) || r.state().equals("Missing"); }

    private static Map<String, Object> nullValue(String key) {
        Map<String, Object> m = new HashMap<>();
        m.put(key, null);
        return java.util.Collections.unmodifiableMap(m);
    }

    private static String seconds(long s) {
        return s < 60 ? s + "s" : s % 60 == 0 ? s / 60 + "m" : s / 60 + "m" + s % 60 + "s";
    }
}
