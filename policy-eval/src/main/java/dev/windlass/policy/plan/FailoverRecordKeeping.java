package dev.windlass.policy.plan;

import dev.windlass.policy.failover.AppFailover;
import dev.windlass.policy.state.AppStatus;
import dev.windlass.policy.state.Condition;
import dev.windlass.policy.state.EvictionTask;
import dev.windlass.policy.state.EvictionTask.Purge;
import dev.windlass.policy.state.FailoverMemory;
import dev.windlass.policy.state.FailoverRecord;
import dev.windlass.policy.state.PreservedValue;
import dev.windlass.policy.state.TargetStatus;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * Records an application's failovers after a pass: the clocks and values on each target, the evictions with
 * their old copies purged or still pending, the FailoverBlocked condition, and an event for each thing that
 * happened (started, healthy, failed, blocked, back in the pool).
 */
final class FailoverRecordKeeping {
    static final String BLOCKED = "FailoverBlocked";

    private FailoverRecordKeeping() {}

    /** Each target with its failover clock, observed values and the state injected there. */
    static List<TargetStatus> targets(List<TargetStatus> targets, AppFailover af) {
        if (af == null) return targets;
        List<TargetStatus> out = new ArrayList<>();
        for (TargetStatus t : targets) {
            AppFailover.TargetClock clock = af.targets().get(t.cluster());
            boolean placed = af.placement().contains(t.cluster());
            List<PreservedValue> injected = placed ? af.inject().getOrDefault(t.cluster(), List.of()) : t.injectedState();
            out.add(clock == null ? t.withFailover(t.unhealthySince(), t.observedState(), injected)
                    : t.withFailover(clock.unhealthySince(), clock.observed(), injected));
        }
        return out;
    }

    /** The memory to record: an old copy is purged once the application has no record left on that cluster. */
    static FailoverMemory memory(AppFailover af, List<TargetStatus> targets) {
        List<EvictionTask> tasks = new ArrayList<>();
        for (EvictionTask t : af.memory().evictions()) {
            boolean left = targets.stream().noneMatch(x -> x.cluster().equals(t.fromCluster()));
            tasks.add(t.purgeIs(Purge.Pending) && left && !af.placement().contains(t.fromCluster()) ? t.purged(Purge.Done) : t);
        }
        FailoverMemory m = af.memory();
        return new FailoverMemory(tasks, m.history(), m.failedAttempts(), m.orphanedOn());
    }

    /** FailoverBlocked while a due failover cannot happen; no condition otherwise. */
    static Condition blocked(AppFailover af, AppStatus prev, Instant now) {
        if (af == null || af.blocked() == null) return null;
        Condition c = new Condition(BLOCKED, Condition.Status.True, af.blockedReason().name(), af.blocked(), now);
        return c.since(prev == null ? null : prev.condition(BLOCKED));
    }

    /**
     * What changed between the recorded memory and the new one.
     *
     * @param now the pass's failover, whose {@code blocked} is the FailoverBlocked condition now; null when nothing is decided
     */
    static List<Event> events(String app, FailoverMemory before, FailoverMemory after, Condition blockedBefore, AppFailover now) {
        List<Event> out = new ArrayList<>();
        for (EvictionTask t : after.evictions()) {
            EvictionTask old = find(before, t);
            if (old == null) {
                out.add(new Event.FailoverStarted(app, t.fromCluster(), to(t), t.reason(), t.purgeMode()));
                if (!t.preservedState().isEmpty()) out.add(new Event.StateCarried(app, t.preservedState(), to(t)));
                t.notes().forEach(n -> out.add(new Event.FailoverNote(app, n)));
            }
            if (t.completedAt() != null && (old == null || old.completedAt() == null)) {
                long took = Duration.between(t.createdAt(), t.completedAt()).toSeconds();
                out.add(new Event.FailoverHealthy(app, t.fromCluster(), to(t), t.reason(), took));
            }
            if (t.failedAt() != null && (old == null || old.failedAt() == null)) {
                FailoverRecord r = after.failedAttempts().isEmpty() ? null : after.failedAttempts().get(after.failedAttempts().size() - 1);
                out.add(new Event.FailoverFailed(app, t.fromCluster(), to(t), r == null ? null : r.failure()));
            }
        }
        for (EvictionTask t : before.evictions()) {
            if (find(after, t) == null && t.failedAt() == null && t.completedAt() != null) {
                out.add(new Event.BackInPool(app, t.fromCluster()));
            }
        }
        boolean blockedNow = now != null && now.blocked() != null;
        if (blockedNow && (blockedBefore == null || !blockedBefore.message().equals(now.blocked()))) {
            out.add(new Event.FailoverBlocked(app, now.blockedReason(), now.blocked()));
        } else if (!blockedNow && blockedBefore != null) {
            out.add(new Event.FailoverUnblocked(app));
        }
        return out;
    }

    private static EvictionTask find(FailoverMemory m, EvictionTask t) {
        return m.evictions().stream().filter(x -> x.fromCluster().equals(t.fromCluster()) && x.createdAt().equals(t.createdAt()))
                .findFirst().orElse(null);
    }

    /** Where the application goes: the replacements, or the placement after the failover when it names none. */
    private static List<String> to(EvictionTask t) {
        return t.replacements().isEmpty() ? t.clustersAfterFailover() : t.replacements();
    }
}
