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
import java.util.stream.Collectors;

/**
 * Records an application's failovers after a pass: the clocks and values on each target, the evictions with
 * their old copies purged or still pending, the FailoverBlocked condition, and a line for each thing that
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

    /** Lines for what changed between the recorded memory and the new one. */
    static List<Event> events(String app, FailoverMemory before, FailoverMemory after, Condition blockedBefore, Condition blockedNow) {
        List<Event> out = new ArrayList<>();
        for (EvictionTask t : after.evictions()) {
            EvictionTask old = find(before, t);
            if (old == null) {
                out.add(new Event(Event.Type.Failover, app + " failover " + t.fromCluster() + " → " + arrow(t) + " started ("
                        + t.reason() + "), purge " + t.purgeMode()));
                if (!t.preservedState().isEmpty()) {
                    out.add(new Event(Event.Type.Failover, app + " carries " + values(t.preservedState()) + " to " + arrow(t)));
                }
                t.notes().forEach(n -> out.add(new Event(Event.Type.Failover, app + ": " + n)));
            }
            if (t.completedAt() != null && (old == null || old.completedAt() == null)) {
                long took = Duration.between(t.createdAt(), t.completedAt()).toSeconds();
                out.add(new Event(Event.Type.Failover, app + " failover " + t.fromCluster() + " → " + arrow(t) + " (" + t.reason()
                        + ") healthy after " + took + "s"));
            }
            if (t.failedAt() != null && (old == null || old.failedAt() == null)) {
                FailoverRecord r = after.failedAttempts().isEmpty() ? null : after.failedAttempts().get(after.failedAttempts().size() - 1);
                out.add(new Event(Event.Type.Failover, app + " failover " + t.fromCluster() + " → " + arrow(t) + " failed"
                        + (r == null || r.failure() == null ? "" : ": " + r.failure())));
            }
        }
        for (EvictionTask t : before.evictions()) {
            if (find(after, t) == null && t.failedAt() == null && t.completedAt() != null) {
                out.add(new Event(Event.Type.Failover, t.fromCluster() + " is back in " + app + "'s pool: healthy for the toleration"));
            }
        }
        if (blockedNow != null && (blockedBefore == null || !blockedBefore.message().equals(blockedNow.message()))) {
            out.add(new Event(Event.Type.Failover, "failover blocked (" + blockedNow.reason() + "): " + blockedNow.message()));
        } else if (blockedNow == null && blockedBefore != null) {
            out.add(new Event(Event.Type.Failover, app + " failover no longer blocked"));
        }
        return out;
    }

    private static EvictionTask find(FailoverMemory m, EvictionTask t) {
        return m.evictions().stream().filter(x -> x.fromCluster().equals(t.fromCluster()) && x.createdAt().equals(t.createdAt()))
                .findFirst().orElse(null);
    }

    private static String arrow(EvictionTask t) {
        return String.join(", ", t.replacements().isEmpty() ? t.clustersAfterFailover() : t.replacements());
    }

    static String values(List<PreservedValue> values) {
        return values.stream().map(v -> v.label() + "=" + v.value()).collect(Collectors.joining(", "));
    }
}
