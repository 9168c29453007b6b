package dev.windlass.policy.plan;

import dev.windlass.policy.remediation.Remediations;
import dev.windlass.policy.state.ClusterStatus;
import dev.windlass.policy.state.Condition;
import dev.windlass.policy.state.RemediationRecord;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Records a cluster's remediation after a pass: the targets' records, the RemediationBlocked condition with the
 * numbers behind it, and a line for every decision (marked, acted, given up, healthy again, blocked).
 */
final class RemediationRecordKeeping {
    private RemediationRecordKeeping() {}

    static ClusterStatus record(ClusterStatus next, Remediations.ClusterRemediation cr, ClusterStatus prev, Instant now, List<Event> events) {
        List<RemediationRecord> before = prev == null ? List.of() : prev.remediationRecords();
        if (cr == null) return before.isEmpty() ? next : next.withRemediation(List.of());
        Map<String, RemediationRecord> old = before.stream().collect(Collectors.toMap(r -> r.policy() + "|" + r.target(), Function.identity(), (a, b) -> a));
        String cluster = next.name();
        for (RemediationRecord r : cr.records()) {
            RemediationRecord o = old.get(r.policy() + "|" + r.target());
            String was = o == null ? "" : o.state();
            if (r.state().equals("Marked") && !was.equals("Marked") && !was.equals("Remediating")) {
                events.add(line(cluster, r, "marked unhealthy (" + r.reason() + "): " + r.message()));
            } else if (r.state().equals("Remediating") && (o == null || !java.util.Objects.equals(r.lastAttemptAt(), o.lastAttemptAt()))) {
                // An action taken: the one a mark opened an attempt for, or a retry.
                events.add(line(cluster, r, r.message() + " (" + r.reason() + ")"));
            } else if (r.state().equals("GaveUp") && !was.equals("GaveUp")) {
                events.add(line(cluster, r, r.message()));
            } else if (r.state().equals("Missing") && !was.equals("Missing")) {
                events.add(line(cluster, r, "missing: " + r.message()));
            } else if (r.state().equals("Healthy") && (was.equals("Marked") || was.equals("Remediating") || was.equals("GaveUp") || was.equals("Unhealthy"))) {
                events.add(line(cluster, r, "healthy again" + (r.attempts() > 0 ? " after " + r.attempts() + (r.attempts() == 1 ? " attempt" : " attempts") : "")));
            }
        }
        List<Condition> conds = new ArrayList<>(next.conditions());
        conds.removeIf(c -> c.type().equals(Remediations.BLOCKED));
        Condition blockedBefore = prev == null ? null : prev.conditions().stream().filter(c -> c.type().equals(Remediations.BLOCKED)).findFirst().orElse(null);
        if (cr.blocked() != null) {
            Condition c = new Condition(Remediations.BLOCKED, "True", cr.blockedReason(), cr.blocked(), now.toString()).since(blockedBefore);
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

    private static Event line(String cluster, RemediationRecord r, String what) {
        return new Event(Event.Type.Remediation, cluster + ": " + r.target() + " " + what + " (" + r.policy() + ")");
    }
}
