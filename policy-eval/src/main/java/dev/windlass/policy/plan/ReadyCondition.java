package dev.windlass.policy.plan;

import dev.windlass.policy.state.AppStatus;
import dev.windlass.policy.state.Condition;
import dev.windlass.policy.state.Health;
import dev.windlass.policy.state.Sync;
import dev.windlass.policy.state.TargetStatus;
import java.time.Instant;
import java.util.List;

/** An application's {@code Ready} condition from its targets: ready when every one is synced and healthy, else why not. */
final class ReadyCondition {
    private ReadyCondition() {}

    /** @param override the reason to record instead (such as {@code Deleting}), never ready; null: from the targets */
    static List<Condition> of(List<TargetStatus> targets, AppStatus prev, Instant now, String override) {
        boolean ready = override == null && targets.stream().allMatch(t -> t.sync() == Sync.Synced && t.health() == Health.Healthy);
        String reason = override != null ? override
                : targets.stream().anyMatch(t -> t.sync() == Sync.Unknown) ? "ClusterUnreachable"
                : targets.stream().anyMatch(t -> !t.message().isEmpty() && t.sync() == Sync.OutOfSync) ? "ApplyFailed"
                : targets.stream().anyMatch(t -> !t.drift().isEmpty()) ? "Drifted"
                : targets.stream().anyMatch(t -> t.sync() != Sync.Synced) ? "OutOfSync"
                : ready ? "Synced" : "Progressing";
        Condition c = new Condition("Ready", Condition.Status.of(ready), reason,
                ready ? "synced and healthy on " + targets.size() + (targets.size() == 1 ? " cluster" : " clusters") : "", now);
        return List.of(c.since(prev == null ? null : prev.condition("Ready")));
    }
}
