package dev.windlass.policy.plan;

import dev.windlass.policy.model.Application;
import dev.windlass.policy.model.Cluster;
import dev.windlass.policy.model.RolloutPolicy;
import dev.windlass.policy.state.Health;
import dev.windlass.policy.state.AppStatus;
import dev.windlass.policy.state.ClusterStep;
import dev.windlass.policy.state.ClusterStep.State;
import dev.windlass.policy.state.RolloutState;
import dev.windlass.policy.state.RolloutState.Result;
import dev.windlass.policy.state.TargetStatus;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Decides, for one application with a rollout policy, which clusters take its revision now and which
 * wait, from the recorded rollout, what the clusters look like and the time. A cluster succeeds once
 * Healthy at the revision for minSuccessTime; one not Healthy by progressDeadline fails; more
 * failures than maxFailures fail the rollout, which pauses or rolls back and makes the revision
 * invalid until its content changes.
 */
final class RolloutPlanner {
    private RolloutPlanner() {}

    /**
     * @param proceed   clusters whose planned actions go ahead
     * @param holds     clusters that wait, and why
     * @param rollback  clusters to return to the previous revision, with the application as it was
     * @param startedNow clusters that start this pass: recorded before anything is applied
     */
    record RolloutDecision(RolloutState next, Set<String> proceed, Map<String, HoldReason> holds, Map<String, Application> rollback,
                    Set<String> startedNow) {}

    /**
     * @param healthyAtRevision for each reachable placed cluster: Healthy at the app's revision with nothing left to apply
     * @param frozen            clusters where the app is suspended now, and why: no step starts there and the clocks
     *                          of a step under way stand still
     */
    static RolloutDecision decide(Application app, RolloutPolicy policy, String source, List<String> placed, Map<String, Cluster> clusters,
                           AppStatus previous, Map<String, Boolean> healthyAtRevision, Application lastGood, Map<String, HoldReason> frozen,
                           Instant now) {
        String revision = app.revision();
        RolloutState prior = previous == null ? null : previous.rollout();
        Set<String> proceed = new TreeSet<>();
        Map<String, HoldReason> held = new HashMap<>();
        Map<String, Application> rollback = new HashMap<>();
        List<String> behind = placed.stream().filter(c -> !has(app, previous, c)).toList();

        if (previous != null && previous.invalidRevisions().contains(revision)) {
            for (String c : placed) {
                ClusterStep step = prior != null && prior.revision().equals(revision) ? prior.step(c) : null;
                if (step != null && step.state() == State.RolledBack && lastGood != null) rollback.put(c, lastGood);
                else if (behind.contains(c)) held.put(c, new HoldReason.InvalidRevision(revision,
                        prior != null && prior.revision().equals(revision) ? prior.message() : ""));
                else proceed.add(c);
            }
            return new RolloutDecision(prior, proceed, held, rollback, Set.of());
        }
        boolean continuing = prior != null && prior.revision().equals(revision) && prior.active();
        if (!continuing && (behind.isEmpty() || prior != null && prior.revision().equals(revision) && prior.result() == Result.Succeeded)) {
            proceed.addAll(placed);
            return new RolloutDecision(prior, proceed, held, rollback, Set.of());
        }

        RolloutOrder order = RolloutOrder.of(policy, placed, clusters);
        List<ClusterStep> steps = new ArrayList<>();
        for (RolloutOrder.Entry e : order.entries()) {
            ClusterStep old = continuing ? prior.step(e.cluster()) : null;
            if (old != null) steps.add(new ClusterStep(e.cluster(), old.state(), e.wave(), old.startedAt(), old.healthySince(), old.finishedAt(), old.pausedAt()));
            else if (!behind.contains(e.cluster())) steps.add(new ClusterStep(e.cluster(), State.Succeeded, e.wave(), null, null, now, null));
            else steps.add(new ClusterStep(e.cluster(), State.Pending, e.wave(), null, null, null, null));
        }
        for (String c : order.excluded()) {
            held.put(c, new HoldReason.NotInRolloutGroup(policy.name()));
        }
        steps = evaluate(steps, policy, healthyAtRevision, frozen, now);

        long failures = steps.stream().filter(ClusterStep::failed).count();
        int budget = policy.maxFailures().of(steps.size());
        Result result = continuing ? prior.result() : Result.Progressing;
        String message = continuing ? prior.message() : "";
        Instant finishedAt = null;
        Set<String> startedNow = new TreeSet<>();
        List<String> failedClusters = continuing ? prior.failedClusters() : List.of();
        if (failures > budget) {
            failedClusters = steps.stream().filter(ClusterStep::failed).map(ClusterStep::cluster).toList();
            message = failures + " of " + steps.size() + " clusters failed (maxFailures " + policy.maxFailures() + "): "
                    + String.join(", ", steps.stream().filter(ClusterStep::failed).map(s -> s.cluster() + " " + s.state()).toList());
            boolean canRollBack = policy.onFailure() == RolloutPolicy.OnFailure.Rollback && lastGood != null;
            result = canRollBack ? Result.RolledBack : Result.Failed;
            if (policy.onFailure() == RolloutPolicy.OnFailure.Rollback && lastGood == null) message += "; no earlier good revision to roll back to, paused";
            finishedAt = now;
            List<ClusterStep> after = new ArrayList<>();
            for (ClusterStep s : steps) {
                boolean touched = s.state() != State.Pending;
                if (canRollBack && touched) {
                    after.add(s.with(State.RolledBack, s.startedAt(), s.healthySince(), now));
                    rollback.put(s.cluster(), lastGood);
                } else {
                    after.add(s);
                }
            }
            steps = after;
        } else if (result == Result.Progressing || result == Result.Paused) {
            result = app.rolloutPaused() == null ? Result.Progressing : Result.Paused;
            if (result == Result.Progressing) steps = start(steps, policy, frozen, now, startedNow);
            message = result == Result.Paused ? "paused: " + app.rolloutPaused() : "";
            if (steps.stream().allMatch(ClusterStep::finished)) {
                result = Result.Succeeded;
                finishedAt = now;
            }
        }

        HoldReason reason = waitingReason(policy, steps, result, message, app.rolloutPaused());
        for (ClusterStep s : steps) {
            if (rollback.containsKey(s.cluster())) continue;
            if (s.state() == State.Pending) held.put(s.cluster(), frozen.getOrDefault(s.cluster(), reason));
            else proceed.add(s.cluster());
        }
        String previousRevision = continuing ? prior.previousRevision() : previous == null || previous.lastGood() == null ? "" : previous.lastGood().revision();
        String previousSource = continuing ? prior.previousSource() : previous == null || previous.lastGood() == null ? "" : previous.lastGood().source();
        RolloutState next = new RolloutState(revision, continuing ? prior.source() : source, previousRevision, previousSource, policy.name(),
                gate(policy, steps.size()), result, message, order.waves(), continuing ? prior.startedAt() : now, finishedAt, steps, failedClusters);
        return new RolloutDecision(next, proceed, held, rollback, startedNow);
    }

    /**
     * Progressing clusters become Succeeded after minSuccessTime healthy, or TimedOut at progressDeadline. While a
     * cluster is frozen its step's clocks stand still: on resume, start and healthy-since move forward by the pause.
     */
    private static List<ClusterStep> evaluate(List<ClusterStep> steps, RolloutPolicy policy, Map<String, Boolean> healthy,
                                              Map<String, HoldReason> frozen, Instant now) {
        List<ClusterStep> out = new ArrayList<>();
        for (ClusterStep step : steps) {
            ClusterStep s = step;
            if (s.state() != State.Progressing) {
                out.add(s);
                continue;
            }
            if (frozen.containsKey(s.cluster())) {
                out.add(s.pausedAt() != null ? s : s.paused(now));
                continue;
            }
            if (s.pausedAt() != null) {
                Duration pause = Duration.between(s.pausedAt(), now);
                s = s.with(s.state(), s.startedAt().plus(pause),
                        s.healthySince() == null ? null : s.healthySince().plus(pause), s.finishedAt()).paused(null);
            }
            Instant started = s.startedAt();
            if (Boolean.TRUE.equals(healthy.get(s.cluster()))) {
                Instant since = s.healthySince() != null ? s.healthySince() : now;
                boolean soaked = !Duration.between(since, now).minus(policy.minSuccessTime()).isNegative();
                out.add(soaked ? s.with(State.Succeeded, s.startedAt(), since, now) : s.with(State.Progressing, s.startedAt(), since, null));
            } else if (!Duration.between(started, now).minus(policy.progressDeadline()).isNegative()) {
                out.add(s.with(State.TimedOut, s.startedAt(), null, now));
            } else {
                out.add(s.with(State.Progressing, s.startedAt(), null, null));
            }
        }
        return out;
    }

    /** Starts Pending clusters in order: up to maxConcurrency at once, a whole group, or all. */
    private static List<ClusterStep> start(List<ClusterStep> steps, RolloutPolicy policy, Map<String, HoldReason> frozen, Instant now,
                                           Set<String> started) {
        long inProgress = steps.stream().filter(s -> s.state() == State.Progressing).count();
        int concurrency = policy.maxConcurrency().atLeastOne(steps.size());
        int currentWave = steps.stream().filter(s -> !s.finished()).mapToInt(ClusterStep::wave).min().orElse(Integer.MAX_VALUE);
        List<ClusterStep> out = new ArrayList<>();
        for (ClusterStep s : steps) {
            boolean go = s.state() == State.Pending && !frozen.containsKey(s.cluster()) && switch (policy.type()) {
                case All -> true;
                case ProgressivePerGroup -> s.wave() == currentWave;
                case Progressive -> inProgress < concurrency;
            };
            if (go) {
                inProgress++;
                started.add(s.cluster());
                out.add(s.with(State.Progressing, now, null, null));
            } else {
                out.add(s);
            }
        }
        return out;
    }

    private static HoldReason waitingReason(RolloutPolicy policy, List<ClusterStep> steps, Result result, String message, String pausedBy) {
        if (result == Result.Failed || result == Result.RolledBack) return new HoldReason.RolloutFailed(message);
        if (result == Result.Paused) return new HoldReason.RolloutPaused(pausedBy);
        List<String> progressing = steps.stream().filter(s -> s.state() == State.Progressing).map(ClusterStep::cluster).toList();
        int wave = steps.stream().filter(s -> !s.finished()).mapToInt(ClusterStep::wave).min().orElse(0);
        return new HoldReason.AwaitsWave(policy.name(), wave, progressing);
    }

    static String gate(RolloutPolicy p, int clusters) {
        String pace = switch (p.type()) {
            case All -> "all clusters at once";
            case ProgressivePerGroup -> "a group at a time";
            case Progressive -> "at most " + p.maxConcurrency().atLeastOne(clusters) + " at a time";
        };
        return pace + "; a cluster succeeds when Healthy for " + dev.windlass.policy.parse.Durations.format(p.minSuccessTime())
                + " and fails when not Healthy within " + dev.windlass.policy.parse.Durations.format(p.progressDeadline())
                + "; with more than " + p.maxFailures().of(clusters) + (p.maxFailures().of(clusters) == 1 ? " failure" : " failures")
                + " the rollout " + (p.onFailure() == RolloutPolicy.OnFailure.Pause ? "stops" : "rolls back");
    }

    /**
     * Whether {@code cluster} already has what the application's revision brings it: that revision, or, for a rendered
     * application, the very objects it renders there (its revision on that cluster). A change that renders the same
     * objects on a cluster has nothing to roll out there.
     */
    static boolean has(Application app, AppStatus previous, String cluster) {
        TargetStatus t = previous == null ? null : previous.target(cluster);
        if (t == null) return false;
        if (t.revision().equals(app.revision())) return true;
        String rendered = app.renderedOn(cluster);
        return !rendered.isEmpty() && rendered.equals(t.rendered());
    }

    static boolean healthy(TargetPlanner.Result r) {
        return r != null && r.applies().isEmpty() && r.target().health() == Health.Healthy;
    }
}
