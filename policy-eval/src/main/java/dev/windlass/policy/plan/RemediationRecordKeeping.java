package dev.windlass.policy.plan;

import dev.windlass.policy.remediation.Durations;
import dev.windlass.policy.remediation.Remediations;
import dev.windlass.policy.state.ClusterStatus;
import dev.windlass.policy.state.Condition;
import dev.windlass.policy.state.RemediationRecord;
import dev.windlass.policy.state.RemediationRecord.State;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * Records a cluster's remediation after a pass: the targets' records, the RemediationBlocked condition with the
 * numbers behind it, and an event for every change of a record (marked, acted, given up, healthy again, blocked, and
 * the rest), so every status commit it causes says why. The records hold since-times only: an unchanged situation
 * gives an unchanged record, and no commit.
 */
final class RemediationRecordKeeping {
    private RemediationRecordKeeping() {}

    static ClusterStatus record(ClusterStatus next, Remediations.ClusterRemediation cr, ClusterStatus prev, Instant now, List<Event> events) {
        List<RemediationRecord> before = prev == null ? List.of() : prev.remediationRecords();
        String cluster = next.name();
        if (cr == null) {
            if (before.isEmpty()) return next;
            events.add(new Event.RemediationUnwatched(cluster, before.size()));
            return next.withRemediation(List.of());
        }
        Map<String, RemediationRecord> old = new LinkedHashMap<>();
        before.forEach(r -> old.putIfAbsent(r.policy() + "|" + r.target(), r));
        Map<String, List<String>> joined = new TreeMap<>();
        for (RemediationRecord r : cr.records()) {
            RemediationRecord o = old.remove(r.policy() + "|" + r.target());
            if (o == null) {
                joined.computeIfAbsent(r.policy(), k -> new ArrayList<>()).add(r.target());
                continue;
            }
            Event changed = change(cluster, o, r, now);
            if (changed != null) events.add(changed);
        }
        joined.forEach((policy, targets) -> events.add(new Event.RemediationWatches(cluster, policy, targets, !before.isEmpty())));
        Map<String, List<String>> gone = new TreeMap<>();
        old.values().forEach(r -> gone.computeIfAbsent(r.policy(), k -> new ArrayList<>()).add(r.target()));
        gone.forEach((policy, targets) -> events.add(new Event.RemediationNoLongerWatches(cluster, policy, targets)));
        List<Condition> conds = new ArrayList<>(next.conditions());
        conds.removeIf(c -> c.type().equals(Remediations.BLOCKED));
        Condition blockedBefore = prev == null ? null : prev.conditions().stream().filter(c -> c.type().equals(Remediations.BLOCKED)).findFirst().orElse(null);
        if (cr.blocked() != null) {
            Condition c = new Condition(Remediations.BLOCKED, Condition.Status.True, cr.blockedReason().name(), cr.blocked(), now).since(blockedBefore);
            conds.add(c);
            if (blockedBefore == null || !blockedBefore.message().equals(c.message())) {
                events.add(new Event.RemediationBlocked(cluster, cr.blockedReason(), cr.blocked()));
            }
        } else if (blockedBefore != null) {
            events.add(new Event.RemediationUnblocked(cluster));
        }
        return next.withConditions(conds).withRemediation(cr.records());
    }

    /**
     * The actions the cluster refused, kept in their targets' records ("CordonAndDrain attempt 1 of 2 failed: ..."), so
     * the status says why an attempt did nothing and the error reaches the status branch with it.
     */
    static ClusterStatus failures(ClusterStatus next, List<ActionResult> results) {
        List<RemediationRecord> records = new ArrayList<>(next.remediationRecords());
        boolean changed = false;
        for (ActionResult r : results) {
            Action a = r.action();
            if (!a.app().isEmpty() || !a.cluster().equals(next.name()) || r.succeeded()) continue;
            String target = a.object().kind() + " " + (a.object().namespaced() ? a.object().namespace() + "/" + a.object().name() : a.object().name());
            for (int i = 0; i < records.size(); i++) {
                RemediationRecord rec = records.get(i);
                if (!rec.target().equals(target)) continue;
                records.set(i, rec.withMessage(rec.message() + (rec.message().isEmpty() ? "" : " ") + "failed: " + r.message()));
                changed = true;
            }
        }
        return changed ? next.withRemediation(records) : next;
    }

    /**
     * What a record's change was, or null when it did not change. Every change has an event, so no status commit is without
     * one; how long a target has been unhealthy or healthy is taken at {@code now}, never kept in the record.
     */
    static Event change(String cluster, RemediationRecord o, RemediationRecord r, Instant now) {
        if (o.equals(r)) return null;
        String target = r.target(), policy = r.policy();
        if (r.in(State.Marked) && r.markedAt() != null && !r.markedAt().equals(o.markedAt())) {
            return new Event.TargetMarked(cluster, target, policy, Event.Unhealthy.of(r, now), r.message());
        }
        if (r.in(State.Remediating) && !Objects.equals(r.lastAttemptAt(), o.lastAttemptAt())) {
            // An action taken: the one a mark opened an attempt for, or a retry.
            return new Event.TargetActedOn(cluster, target, policy, Event.Unhealthy.of(r, now), r.message());
        }
        if (r.in(State.GaveUp) && !o.in(State.GaveUp)) return new Event.TargetGivenUp(cluster, target, policy, r.message());
        if (r.in(State.Missing) && !o.in(State.Missing)) return new Event.TargetMissing(cluster, target, policy, r.message());
        if (r.in(State.Healthy) && !o.in(State.Healthy)) {
            return new Event.TargetHealthy(cluster, target, policy, o.everHealthy(), r.attempts(), r.cordonedAt() != null ? r.message() : null);
        }
        if (r.in(State.Healthy) && o.cordonedAt() != null && r.cordonedAt() == null) {
            return new Event.TargetUncordoned(cluster, target, policy, Durations.between(r.healthySince(), now));
        }
        if (r.in(State.Healthy) && o.attempts() > 0 && r.attempts() == 0) {
            return new Event.TargetAttemptsReset(cluster, target, policy, Durations.between(r.healthySince(), now));
        }
        if (r.in(State.Pending) && !o.in(State.Pending)) return new Event.TargetPending(cluster, target, policy, r.reason(), r.message());
        if (r.in(State.Unhealthy) && !o.in(State.Unhealthy)) {
            return new Event.TargetUnhealthy(cluster, target, policy, Event.Unhealthy.of(r, now), r.message());
        }
        return new Event.TargetStateChanged(cluster, target, policy, r.state(), r.reason(), r.message());
    }
}
