package dev.windlass.engine.reconcile;

import dev.windlass.applier.observe.FleetStamp;
import dev.windlass.engine.alerts.Outboxes;
import dev.windlass.policy.state.EngineState;
import dev.windlass.policy.plan.ApplyResult;
import dev.windlass.policy.plan.PlanMemo;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SortedSet;

/**
 * The last whole pass that left the fleet at rest ({@link dev.windlass.policy.plan.AtRest}), and what a later pass
 * must find the same to be skipped: the config branch's tip, the shards this replica acts for, the status branch's
 * commit (so nothing another replica recorded since is missed), the status this engine holds (the very objects it
 * left, so anything recorded since by this engine, or read again, ends the rest), the alert outboxes, and what every
 * cluster's watches held just before it observed (its own clusters', with shards). The pass that checks this still asks
 * Git whether either branch moved (one fetch) and each of its clusters whether it is ready.
 *
 * @param held      the shards the pass acted for; null without shards
 * @param statusTip the status branch's commit after the pass, as this engine's mirror has it; null when there is none
 * @param until     when the rest ends whatever happens (the horizon, or a Freeze window opening or closing)
 * @param report    what that pass reported, reported again by the passes skipped
 */
record QuietPass(String tip, SortedSet<Integer> held, String statusTip, EngineState state, Map<String, byte[]> recorded, Outboxes outboxes,
                 FleetStamp stamp, Instant until, PassReport report) {

    /** Whether nothing this engine reads before a pass has moved since, and the rest has not ended. */
    boolean holds(String tip, SortedSet<Integer> held, String statusTip, EngineState state, Map<String, byte[]> recorded, Outboxes outboxes,
                  Instant now) {
        return this.tip.equals(tip) && Objects.equals(this.held, held) && Objects.equals(this.statusTip, statusTip) && this.state == state
                && this.recorded == recorded && this.outboxes == outboxes && now.isBefore(until);
    }

    /** What a skipped pass reports: the same plan, and that nothing was parsed, rendered, planned, applied or recorded. */
    PassReport skipped() {
        return new PassReport(report.source(), report.desired(), report.plan(), new ApplyResult(List.of()), List.of(), report.status(), 0,
                PlanMemo.Work.NONE, 0, report.shards(), true);
    }
}
