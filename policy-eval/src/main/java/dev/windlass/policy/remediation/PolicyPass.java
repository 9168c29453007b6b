package dev.windlass.policy.remediation;

import dev.windlass.policy.suspension.Hold;
import dev.windlass.policy.model.RemediationPolicy;
import dev.windlass.policy.observe.ClusterObservation;
import dev.windlass.policy.observe.KindRef;
import dev.windlass.policy.observe.ObservedTarget;
import dev.windlass.policy.plan.Action;
import dev.windlass.policy.state.RemediationRecord;
import dev.windlass.policy.state.RemediationRecord.State;
import java.time.Instant;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** One policy on one cluster in one pass: every target's record, then at most the steps the gates allow. */
final class PolicyPass {
    private final RemediationPolicy policy;
    private final String cluster;
    private final ClusterObservation obs;
    private final List<RemediationRecord> before;
    private final Hold hold;
    private final String rollout;
    private final Instant now;
    private final List<RemediationRecord> out;
    private final List<Action> actions;
    private final FirstBlock blocked;
    private final Assessment assessment;
    private final TargetActions act;

    /**
     * @param hold    what holds the cluster (suspended, frozen), or null
     * @param rollout the application whose rollout step is under way on the cluster, or null
     * @param out     where the records go
     * @param actions where the actions go
     * @param blocked the first block of the cluster's pass, noted if nothing blocked before
     */
    PolicyPass(RemediationPolicy policy, String cluster, ClusterObservation obs, List<RemediationRecord> before, Hold hold,
               String rollout, Instant now, List<RemediationRecord> out, List<Action> actions, FirstBlock blocked) {
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
        this.assessment = new Assessment(policy, now);
        this.act = new TargetActions(policy.name(), cluster);
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
        seen.forEach((id, t) -> next.put(id, assessment.of(t, prev.get(id))));
        // Expected targets that are gone count as unhealthy, until as many new ones have joined.
        long joined = seen.keySet().stream().filter(id -> !prev.containsKey(id)).count();
        // A target this policy deleted was deleted only after its replacement joined: it is simply gone.
        List<RemediationRecord> gone = prev.values().stream().filter(r -> !seen.containsKey(r.target()))
                .filter(r -> !(r.in(State.Remediating) && policy.action() == RemediationPolicy.Action.Delete))
                .sorted(Comparator.comparing(RemediationRecord::target)).toList();
        for (RemediationRecord r : gone.subList((int) Math.min(joined, gone.size()), gone.size())) {
            next.put(r.target(), r.with(State.Missing, "expected and not seen; counts as unhealthy until a new one joins"));
        }

        // Healthy again: the mark comes off, and first: the gate counts a mark still on as a remediation in flight, so the
        // next target is marked no sooner than the pass after this one, and a quorum group never has two marks at once.
        // A node Windlass cordoned keeps its mark (and stays in flight) until it is uncordoned, which, being a change to the
        // node, waits while the cluster is suspended or frozen.
        seen.forEach((id, t) -> {
            RemediationRecord r = next.get(id);
            if (r.cordonedAt() != null) {
                if (!assessment.settled(r)) return;
                if (hold != null) {
                    next.put(id, r.withMessage("healthy for " + Durations.seconds(policy.minHealthyPeriodSeconds())
                            + ": uncordoned and unmarked once " + cluster + " is no longer held: " + hold.text()));
                    return;
                }
                actions.add(act.uncordon(t, "healthy for " + Durations.seconds(policy.minHealthyPeriodSeconds())
                        + " since Windlass cordoned it: uncordoned and unmarked"));
                next.put(id, new RemediationRecord(r.policy(), r.target(), r.state(), r.reason(), r.firstSeen(), r.unhealthySince(),
                        r.healthySince(), r.everHealthy(), null, null, r.attempts(), r.lastAttemptAt(), r.message()));
            } else if (!Remediations.isUnhealthy(r.state()) && marked(t)) {
                actions.add(act.unmark(t, "healthy again: the unhealthy mark is removed"));
            }
        });

        int total = next.size();
        int unhealthy = (int) next.values().stream().filter(Remediations::counted).count();
        List<String> order = next.values().stream().filter(r -> Remediations.isUnhealthy(r.state()) && seen.containsKey(r.target()))
                .sorted(Comparator.comparing(RemediationRecord::unhealthySince, Comparator.nullsFirst(Comparator.<Instant>naturalOrder()))
                        .thenComparing(RemediationRecord::target))
                .map(RemediationRecord::target).toList();
        for (String id : order) {
            RemediationRecord r = next.get(id);
            if (r.in(State.GaveUp)) continue;
            String why = gate(total, unhealthy, next, seen, id);
            if (why != null) {
                next.put(id, r.with(r.state(), why));
                continue;
            }
            Map<String, Instant> firstSeen = new HashMap<>();
            next.values().forEach(x -> firstSeen.put(x.target(), x.firstSeen()));
            next.put(id, step(r, seen.get(id), seen, firstSeen));
        }
        out.addAll(next.values());
    }

    /** What blocks acting on target {@code id} now, in words with the numbers, or null. */
    private String gate(int total, int unhealthy, Map<String, RemediationRecord> next, Map<String, ObservedTarget> seen, String id) {
        long inFlight = next.values().stream().filter(r -> !r.target().equals(id) && inFlight(r, seen)).count();
        boolean alreadyActing = inFlight(next.get(id), seen);
        if (hold != null) return block(RemediationBlock.Suspended, "nothing is remediated on " + cluster + " while it holds: " + hold.text());
        if (rollout != null) return block(RemediationBlock.RolloutInProgress, "deferred: a rollout step of " + rollout + " is under way on " + cluster);
        Verdict g = Gate.allows(policy.triggerIf(), total, unhealthy);
        if (!g.allowed()) return block(RemediationBlock.TooManyUnhealthy, g.why());
        if (policy.quorum() && !alreadyActing) {
            Verdict q = Quorum.allows(total, total - unhealthy, (int) inFlight);
            if (!q.allowed()) return block(RemediationBlock.Quorum, q.why());
        } else if (!alreadyActing && inFlight >= policy.maxInFlight()) {
            return block(RemediationBlock.MaxInFlight, inFlight + " remediation(s) in flight; maxInFlight is " + policy.maxInFlight());
        }
        return null;
    }

    /**
     * In flight: marked or acted on by its record, or still carrying the mark, as when a target healthy again loses its
     * mark in this pass's actions; the mark is off only once a pass no longer sees it.
     */
    private static boolean inFlight(RemediationRecord r, Map<String, ObservedTarget> seen) {
        ObservedTarget t = seen.get(r.target());
        return r.inFlight() || t != null && marked(t);
    }

    private static boolean marked(ObservedTarget t) { return t.annotations().containsKey(Remediations.MARK); }

    private String block(RemediationBlock reason, String why) {
        String text = policy.name() + ": " + why;
        blocked.note(reason, text);
        return text;
    }

    /**
     * The next step for an unhealthy target the gates let through. An attempt starts with the mark, unless the target
     * still carries it; with an action other than Annotate, the action follows in the next pass and belongs to the same
     * attempt. A further attempt waits retryPeriodSeconds from the last one and is made at most maxRetry times in all, so
     * a target that flaps is not marked again on every flap, and one given up is not marked again at all until it has
     * been healthy for minHealthyPeriodSeconds (which starts its count over).
     */
    private RemediationRecord step(RemediationRecord r, ObservedTarget t, Map<String, ObservedTarget> seen, Map<String, Instant> firstSeen) {
        if (policy.action() == RemediationPolicy.Action.Annotate) return annotate(r, t);
        boolean markOn = marked(t);
        if (markOn && r.in(State.Marked)) return take(r, t, seen, firstSeen, Math.max(1, r.attempts()));
        Instant due = retryDue(r);
        if (due != null) {
            if (r.in(State.Remediating)) return r;  // its attempt's own words, and why it failed if it did
            return r.with(State.Unhealthy, "attempt " + r.attempts() + " of " + policy.maxRetry() + " at " + r.lastAttemptAt()
                    + "; the next no sooner than " + due);
        }
        if (r.attempts() >= policy.maxRetry()) return r.with(State.GaveUp, givenUp(r));
        int attempt = r.attempts() + 1;
        if (markOn) return take(r, t, seen, firstSeen, attempt);
        actions.add(act.mark(t, Durations.held(r, now)));
        return new RemediationRecord(r.policy(), r.target(), State.Marked, r.reason(), r.firstSeen(), r.unhealthySince(), null,
                r.everHealthy(), now, r.cordonedAt(), attempt, now, "marked (attempt " + attempt + " of "
                + policy.maxRetry() + "); " + policy.action() + " next pass");
    }

    /** Takes the policy's action as attempt {@code attempt}; or says why it cannot be taken now, and nothing is counted. */
    private RemediationRecord take(RemediationRecord r, ObservedTarget t, Map<String, ObservedTarget> seen, Map<String, Instant> firstSeen,
                                   int attempt) {
        String refused = addAction(t, seen, r, firstSeen);
        if (refused != null) return r.with(r.state(), refused);
        // Windlass undoes only what it did: a node cordoned already (by its owner, by hand) stays as it was found.
        Instant cordonedAt = r.cordonedAt() != null || policy.action() != RemediationPolicy.Action.CordonAndDrain || t.unschedulable()
                ? r.cordonedAt() : now;
        return new RemediationRecord(r.policy(), r.target(), State.Remediating, r.reason(), r.firstSeen(), r.unhealthySince(), null,
                r.everHealthy(), r.markedAt(), cordonedAt, attempt, now, policy.action() + " attempt " + attempt + " of "
                + policy.maxRetry());
    }

    /**
     * Annotate: the mark is the action, so each mark is an attempt. While it stays on, the owner is at work and nothing more
     * is done. Once it is off (the target was healthy a while, or the owner took it off) and the target is unhealthy, it is
     * marked again no sooner than retryPeriodSeconds after the last mark, at most maxRetry times, then given up: a target
     * flapping around its timeout is not re-marked on every flap.
     */
    private RemediationRecord annotate(RemediationRecord r, ObservedTarget t) {
        boolean markOn = marked(t);
        if (markOn && r.in(State.Marked)) return r;
        if (retryDue(r) != null) {
            return r.with(State.Unhealthy, "marked " + r.attempts() + " of " + policy.maxRetry() + " times, last at " + r.lastAttemptAt()
                    + "; marked again no sooner than " + retryDue(r));
        }
        if (r.attempts() >= policy.maxRetry()) return r.with(State.GaveUp, givenUp(r));
        actions.add(act.mark(t, Durations.held(r, now)));
        int attempt = r.attempts() + 1;
        return new RemediationRecord(r.policy(), r.target(), State.Marked, r.reason(), r.firstSeen(), r.unhealthySince(), null,
                r.everHealthy(), now, r.cordonedAt(), attempt, now, "marked (attempt " + attempt + " of "
                + policy.maxRetry() + "); the owner remediates");
    }

    /** When the next attempt may be made, if that is still to come; null when it is due (or none was made). */
    private Instant retryDue(RemediationRecord r) {
        if (r.lastAttemptAt() == null) return null;
        Instant due = r.lastAttemptAt().plusSeconds(policy.retryPeriodSeconds());
        return now.isBefore(due) ? due : null;
    }

    private String givenUp(RemediationRecord r) {
        return "given up after " + r.attempts() + (r.attempts() == 1 ? " attempt" : " attempts") + " (maxRetry " + policy.maxRetry()
                + "), still unhealthy: nothing more is done until it has been healthy for " + Durations.seconds(policy.minHealthyPeriodSeconds())
                + "; look at it by hand";
    }

    /** Adds the policy's action on {@code t}; or says why it cannot be taken now. */
    private String addAction(ObservedTarget t, Map<String, ObservedTarget> seen, RemediationRecord r, Map<String, Instant> firstSeen) {
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
                        && firstSeen.get(o.id()) != null && !firstSeen.get(o.id()).isBefore(r.markedAt()) && assessment.healthy(o));
                if (!replaced) {
                    return "waiting for " + owner + " to add a healthy replacement before " + t.id() + " is deleted (scale up before scale down)";
                }
                actions.add(act.delete(t, Durations.held(r, now) + "; a replacement has joined"));
            }
            case CordonAndDrain -> {
                actions.add(act.cordon(t, Durations.held(r, now)));
                actions.add(act.drain(t, Durations.held(r, now)));
            }
            case Restart -> actions.add(act.restart(t, now.toString(), Durations.held(r, now)));
            case Annotate -> { }
        }
        return null;
    }
}
