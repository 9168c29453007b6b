package dev.windlass.policy.plan;

import dev.windlass.policy.state.Health;
import dev.windlass.policy.state.Sync;
import dev.windlass.policy.state.AppStatus;
import dev.windlass.policy.state.AppStatus.GoodRevision;
import dev.windlass.policy.state.RolloutRecord;
import dev.windlass.policy.state.RolloutState;
import dev.windlass.policy.state.RolloutState.Result;
import dev.windlass.policy.state.TargetStatus;
import java.util.ArrayList;
import java.util.List;

/**
 * What an application remembers about rollouts after a pass: the current rollout, revisions that
 * failed (never rolled out again), the last revision that ran healthy everywhere, and a bounded history.
 */
record RolloutMemory(RolloutState rollout, List<String> invalidRevisions, GoodRevision lastGood, List<RolloutRecord> history) {

    static RolloutMemory after(AppPlan plan, AppStatus prev, RolloutState next, List<TargetStatus> targets, String commit, List<Event> events) {
        RolloutState before = prev == null ? null : prev.rollout();
        RolloutState rollout = next != null ? next : before;
        List<String> invalid = new ArrayList<>(prev == null ? List.of() : prev.invalidRevisions());
        List<RolloutRecord> history = new ArrayList<>(prev == null ? List.of() : prev.rollouts());
        GoodRevision lastGood = prev == null ? null : prev.lastGood();
        if (next != null) {
            events.addAll(RolloutEvents.between(plan.app(), before, next));
            boolean replaced = before != null && before.active() && !before.revision().equals(next.revision());
            if (replaced) history.add(0, record(before, Result.Superseded, next.startedAt()));
            boolean endedNow = !next.active() && (before == null || before.active() || !before.revision().equals(next.revision()));
            if (endedNow) history.add(0, record(next, next.result(), next.finishedAt()));
            if ((next.result() == Result.Failed || next.result() == Result.RolledBack) && !invalid.contains(next.revision())) {
                invalid.add(next.revision());
            }
            if (next.result() == Result.Succeeded) lastGood = new GoodRevision(next.revision(), next.source());
        }
        boolean everywhere = !targets.isEmpty() && targets.stream().allMatch(t -> t.revision().equals(plan.revision())
                && t.sync() == Sync.Synced && t.health() == Health.Healthy);
        if (everywhere && (rollout == null || !rollout.active()) && !invalid.contains(plan.revision())) {
            lastGood = new GoodRevision(plan.revision(), lastGood != null && lastGood.revision().equals(plan.revision()) ? lastGood.source() : commit);
        }
        while (history.size() > AppStatus.HISTORY_LIMIT) history.remove(history.size() - 1);
        return new RolloutMemory(rollout, invalid, lastGood, history);
    }

    private static RolloutRecord record(RolloutState r, Result result, java.time.Instant finishedAt) {
        return new RolloutRecord(r.revision(), r.startedAt(), finishedAt, result, r.message());
    }
}
