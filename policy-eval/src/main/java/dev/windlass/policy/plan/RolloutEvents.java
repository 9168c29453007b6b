package dev.windlass.policy.plan;

import dev.windlass.policy.state.ClusterStep;
import dev.windlass.policy.state.ClusterStep.State;
import dev.windlass.policy.state.RolloutState;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/** The events of a rollout's progress between two recorded states: started, wave started, wave healthy, done, failed. */
public final class RolloutEvents {
    private RolloutEvents() {}

    public static List<Event> between(String app, RolloutState before, RolloutState after) {
        List<Event> out = new ArrayList<>();
        if (after == null || Objects.equals(before, after)) return out;
        boolean fresh = before == null || !before.revision().equals(after.revision()) || !Objects.equals(before.startedAt(), after.startedAt());
        if (fresh && before != null && before.active() && !before.revision().equals(after.revision())) {
            out.add(new Event.RolloutSuperseded(app, before.revision(), after.revision()));
        }
        if (fresh) out.add(new Event.RolloutStarted(app, after.revision(), after.policy(), after.waves()));
        for (int wave = 1; wave <= after.waves(); wave++) {
            List<ClusterStep> now = inWave(after, wave);
            List<ClusterStep> then = fresh ? List.of() : inWave(before, wave);
            List<String> started = now.stream().filter(s -> s.state() == State.Progressing && stateOf(then, s.cluster()) != State.Progressing)
                    .map(ClusterStep::cluster).toList();
            if (!started.isEmpty()) out.add(new Event.WaveStarted(app, after.revision(), wave, after.waves(), started));
            boolean doneNow = !now.isEmpty() && now.stream().allMatch(s -> s.state() == State.Succeeded);
            boolean doneBefore = !then.isEmpty() && then.stream().allMatch(s -> s.state() == State.Succeeded);
            if (doneNow && !doneBefore && now.stream().anyMatch(s -> s.startedAt() != null)) {
                out.add(new Event.WaveHealthy(app, after.revision(), wave, after.waves(), now.stream().map(ClusterStep::cluster).toList(), took(now)));
            }
        }
        if (before == null || before.result() != after.result() || fresh) {
            switch (after.result()) {
                case Succeeded -> out.add(new Event.RolledOut(app, after.revision(), after.clusters().size()));
                case Failed -> out.add(new Event.RolloutFailed(app, after.revision(), after.message()));
                case RolledBack -> out.add(new Event.RolledBack(app, after.revision(), after.previousRevision(), after.message()));
                case Paused -> out.add(new Event.RolloutPaused(app, after.revision(), after.message()));
                default -> { }
            }
        }
        return out;
    }

    private static List<ClusterStep> inWave(RolloutState r, int wave) {
        return r == null ? List.of() : r.clusters().stream().filter(s -> s.wave() == wave).toList();
    }

    private static State stateOf(List<ClusterStep> steps, String cluster) {
        return steps.stream().filter(s -> s.cluster().equals(cluster)).map(ClusterStep::state).findFirst().orElse(null);
    }

    /** From the first start to the last finish in the wave, in seconds. */
    private static long took(List<ClusterStep> wave) {
        Instant first = wave.stream().filter(s -> s.startedAt() != null).map(ClusterStep::startedAt).min(Instant::compareTo).orElseThrow();
        Instant last = wave.stream().filter(s -> s.finishedAt() != null).map(ClusterStep::finishedAt).max(Instant::compareTo).orElse(first);
        return Duration.between(first, last).toSeconds();
    }

}
