package dev.windlass.policy.plan;

import dev.windlass.policy.state.ClusterStep;
import dev.windlass.policy.state.ClusterStep.State;
import dev.windlass.policy.state.RolloutState;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/** The lines a rollout's progress adds to status commits: started, wave started, wave healthy, done, failed. */
public final class RolloutEvents {
    private RolloutEvents() {}

    public static List<Event> between(String app, RolloutState before, RolloutState after) {
        List<Event> out = new ArrayList<>();
        if (after == null || Objects.equals(before, after)) return out;
        String who = app + " " + after.revision();
        boolean fresh = before == null || !before.revision().equals(after.revision()) || !Objects.equals(before.startedAt(), after.startedAt());
        if (fresh && before != null && before.active() && !before.revision().equals(after.revision())) {
            out.add(event(app + " " + before.revision() + " rollout superseded by " + after.revision()));
        }
        if (fresh) out.add(event(who + " rollout started (" + after.policy() + ", " + after.waves() + (after.waves() == 1 ? " wave)" : " waves)")));
        for (int wave = 1; wave <= after.waves(); wave++) {
            List<ClusterStep> now = inWave(after, wave);
            List<ClusterStep> then = fresh ? List.of() : inWave(before, wave);
            List<String> started = now.stream().filter(s -> s.state() == State.Progressing && stateOf(then, s.cluster()) != State.Progressing)
                    .map(ClusterStep::cluster).toList();
            if (!started.isEmpty()) out.add(event(who + " wave " + wave + "/" + after.waves() + " started on " + String.join(", ", started)));
            boolean doneNow = !now.isEmpty() && now.stream().allMatch(s -> s.state() == State.Succeeded);
            boolean doneBefore = !then.isEmpty() && then.stream().allMatch(s -> s.state() == State.Succeeded);
            if (doneNow && !doneBefore && now.stream().anyMatch(s -> s.startedAt() != null)) {
                out.add(event(who + " wave " + wave + "/" + after.waves() + " (" + String.join(",", now.stream().map(ClusterStep::cluster).toList())
                        + ") healthy after " + took(now)));
            }
        }
        if (before == null || before.result() != after.result() || fresh) {
            switch (after.result()) {
                case Succeeded -> out.add(event(who + " rolled out to " + after.clusters().size() + (after.clusters().size() == 1 ? " cluster" : " clusters")));
                case Failed -> out.add(event(who + " rollout failed, stopped where it was: " + after.message()));
                case RolledBack -> out.add(event(who + " rollout failed, rolled back to " + after.previousRevision() + ": " + after.message()));
                case Paused -> out.add(event(who + " rollout " + after.message()));
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
    private static String took(List<ClusterStep> wave) {
        Instant first = wave.stream().filter(s -> s.startedAt() != null).map(ClusterStep::startedAt).min(Instant::compareTo).orElseThrow();
        Instant last = wave.stream().filter(s -> s.finishedAt() != null).map(ClusterStep::finishedAt).max(Instant::compareTo).orElse(first);
        return Duration.between(first, last).toSeconds() + "s";
    }

    private static Event event(String text) { return new Event(Event.Type.Rollout, text); }

}
