package dev.windlass.engine.reconcile;

import dev.windlass.git.CommitOutcome;
import dev.windlass.policy.model.DesiredState;
import dev.windlass.policy.plan.ApplyResult;
import dev.windlass.policy.plan.Event;
import dev.windlass.policy.plan.Plan;
import dev.windlass.policy.plan.PlanMemo;
import java.util.List;

/**
 * What one pass did, for logs, the CLI and tests.
 *
 * @param filesParsed how many files were parsed (the rest came from the cache)
 * @param planning    how many (application, cluster) targets and objects the planner compared afresh, and how many it
 *                    reused from the last pass because nothing they read had changed
 * @param status      the status commit, or Unchanged when the pass changed nothing worth recording
 * @param renders     how many times a render tool ran (the rest of the renders came from the cache)
 * @param shards      the shards the pass acted for and which clusters they own; null when the replica acts for the whole fleet
 * @param skipped     whether the pass was skipped: nothing it reads had moved since a pass that left the fleet at rest,
 *                    whose plan it carries (see {@code QuietPass})
 */
public record PassReport(String source, DesiredState desired, Plan plan, ApplyResult applied, List<Event> events,
                         CommitOutcome status, int filesParsed, PlanMemo.Work planning, long renders,
                         dev.windlass.policy.shard.ShardScope shards, boolean skipped) {

    public PassReport(String source, DesiredState desired, Plan plan, ApplyResult applied, List<Event> events, CommitOutcome status,
                      int filesParsed, PlanMemo.Work planning, long renders, dev.windlass.policy.shard.ShardScope shards) {
        this(source, desired, plan, applied, events, status, filesParsed, planning, renders, shards, false);
    }

    public PassReport(String source, DesiredState desired, Plan plan, ApplyResult applied, List<Event> events, CommitOutcome status,
                      int filesParsed, PlanMemo.Work planning, long renders) {
        this(source, desired, plan, applied, events, status, filesParsed, planning, renders, null);
    }

    public boolean committed() { return status instanceof CommitOutcome.Committed; }
}
