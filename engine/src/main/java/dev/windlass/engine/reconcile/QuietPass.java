package dev.windlass.engine.reconcile;

import dev.windlass.applier.observe.FleetStamp;
import dev.windlass.engine.alerts.Outboxes;
import dev.windlass.policy.state.EngineState;
import java.time.Instant;
import java.util.Map;

/**
 * The last whole pass that left the fleet at rest ({@link dev.windlass.policy.plan.AtRest}), and what a later pass
 * must find the same to be skipped: the commit it applied, the status this engine holds (the very objects it left,
 * so anything recorded since, by this engine or read again from the branch, ends the rest), the alert outboxes, and
 * what every cluster's watches held just before it observed. The pass that checks this still asks Git whether the
 * branch moved and each cluster whether it is ready.
 *
 * @param until when the rest ends whatever happens (the horizon, or a Freeze window opening or closing)
 * @param report what that pass reported, reported again by the passes skipped
 */
record QuietPass(String source, EngineState state, Map<String, byte[]> recorded, Outboxes outboxes, FleetStamp stamp, Instant until,
                 PassReport report) {

    /** Whether nothing this engine holds has moved since, and the rest has not ended. */
    boolean holds(String source, EngineState state, Map<String, byte[]> recorded, Outboxes outboxes, Instant now) {
        return this.source.equals(source) && this.state == state && this.recorded == recorded && this.outboxes == outboxes
                && now.isBefore(until);
    }

    /** What a skipped pass reports: the same plan, and that nothing was parsed, rendered, planned, applied or recorded. */
    PassReport skipped() {
        return new PassReport(report.source(), report.desired(), report.plan(), new dev.windlass.policy.plan.ApplyResult(java.util.List.of()),
                java.util.List.of(), report.status(), 0, dev.windlass.policy.plan.PlanMemo.Work.NONE, 0, null, true);
    }
}
