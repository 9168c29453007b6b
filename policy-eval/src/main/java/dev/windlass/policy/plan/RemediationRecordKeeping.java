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
 * numbers behind it, and a line for every change of a record (marked, acted, given up, healthy again, blocked, and
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
            events.add(new Event(Event.Type.Remediation, cluster + ": no remediation policy selects it now; its " + before.size()
                    + (before.size() == 1 ? " target is" : " targets are") + " no longer watched (marks stay until removed by hand)"));
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
            String what = change(o, r, now);
            if (what != null) events.add(line(cluster, r, what));
        }
        joined.forEach((policy, targets) -> events.add(new Event(Event.Type.Remediation, cluster + ": " + policy + " watches "
                + named(targets) + (before.isEmpty() ? "" : " (new)"))));
        Map<String, List<String>> gone = new TreeMap<>();
        old.values().forEach(r -> gone.computeIfAbsent(r.policy(), k -> new ArrayList<>()).add(r.target()));
        gone.forEach((policy, targets) -> events.add(new Event(Event.Type.Remediation, cluster + ": " + policy + " no longer watches "
                + named(targets) + ": gone")));
        List<Condition> conds = new ArrayList<>(next.conditions());
        conds.removeIf(c -> c.type().equals(Remediations.BLOCKED));
        Condition blockedBefore = prev == null ? null : prev.conditions().stream().filter(c -> c.type().equals(Remediations.BLOCKED)).findFirst().orElse(null);
        if (cr.blocked() != null) {
            Condition c = new Condition(Remediations.BLOCKED, Condition.Status.True, cr.blockedReason().name(), cr.blocked(), now).since(blockedBefore);
            conds.add(c);
            if (blockedBefore == null || !blockedBefore.message().equals(c.message())) {
                events.add(new Event(Event.Type.Remediation, cluster + ": remediation blocked (" + cr.blockedReason() + "): " + cr.blocked()));
            }
        } else if (blockedBefore != null) {
            events.add(new Event(Event.Type.Remediation, cluster + ": remediation no longer blocked"));
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
     * What a record's change says in the status commit, or null when it did not change. Every change has a line, so no
     * status commit is without its event; a duration is rendered here, at {@code now}, never kept in the record.
     */
    static String change(RemediationRecord o, RemediationRecord r, Instant now) {
        if (o.equals(r)) return null;
        if (r.in(State.Marked) && r.markedAt() != null && !r.markedAt().equals(o.markedAt())) {
            return "marked unhealthy (" + Durations.held(r, now) + "): " + r.message();
        }
        if (r.in(State.Remediating) && !Objects.equals(r.lastAttemptAt(), o.lastAttemptAt())) {
            // An action taken: the one a mark opened an attempt for, or a retry.
            return r.message() + " (" + Durations.held(r, now) + ")";
        }
        if (r.in(State.GaveUp) && !o.in(State.GaveUp)) return r.message();
        if (r.in(State.Missing) && !o.in(State.Missing)) return "missing: " + r.message();
        if (r.in(State.Healthy) && !o.in(State.Healthy)) {
            return (o.everHealthy() ? "healthy again" : "healthy")
                    + (r.attempts() > 0 ? " after " + r.attempts() + (r.attempts() == 1 ? " attempt" : " attempts") : "")
                    + (r.cordonedAt() != null ? "; " + r.message() : "");
        }
        if (r.in(State.Healthy) && o.cordonedAt() != null && r.cordonedAt() == null) {
            return "uncordoned and unmarked: healthy for " + Durations.seconds(Durations.between(r.healthySince(), now))
                    + " since Windlass cordoned it; its retries start over";
        }
        if (r.in(State.Healthy) && o.attempts() > 0 && r.attempts() == 0) {
            return "healthy for " + Durations.seconds(Durations.between(r.healthySince(), now)) + ": its attempts start over";
        }
        if (r.in(State.Pending) && !o.in(State.Pending)) return r.reason() + ": " + r.message();
        if (r.in(State.Unhealthy) && !o.in(State.Unhealthy)) {
            return "unhealthy (" + Durations.held(r, now) + ")" + (r.message().isEmpty() ? "" : ": " + r.message());
        }
        return r.state().name().toLowerCase(java.util.Locale.ROOT) + (r.reason().isEmpty() ? "" : " (" + r.reason() + ")")
                + (r.message().isEmpty() ? "" : ": " + r.message());
    }

    /** "Node a, Node b, Node c" or "Node a, Node b, Node c (+7 more)". */
    private static String named(List<String> targets) {
        int shown = Math.min(3, targets.size());
        return String.join(", ", targets.subList(0, shown)) + (targets.size() > shown ? " (+" + (targets.size() - shown) + " more)" : "");
    }

    private static Event line(String cluster, RemediationRecord r, String what) {
        return new Event(Event.Type.Remediation, cluster + ": " + r.target() + " " + what + " (" + r.policy() + ")");
    }
}
