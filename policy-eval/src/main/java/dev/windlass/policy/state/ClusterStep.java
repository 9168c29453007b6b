package dev.windlass.policy.state;

import java.time.Instant;

/**
 * One cluster's part in a rollout, with the times that decide it (from the engine's clock; ISO-8601 in the status file).
 *
 * @param wave         1-based, for people: which wave the cluster is in
 * @param healthySince when the cluster was first seen Healthy at the new revision, reset when it is not
 * @param pausedAt     when a suspension stopped this step's clocks (soak and deadline do not run while frozen), or null
 */
public record ClusterStep(String cluster, State state, int wave, Instant startedAt, Instant healthySince, Instant finishedAt,
                          Instant pausedAt) {

    public enum State { Pending, Progressing, Succeeded, Failed, TimedOut, Skipped, RolledBack }

    public boolean finished() {
        return state != State.Pending && state != State.Progressing;
    }

    public boolean failed() { return state == State.Failed || state == State.TimedOut; }

    public ClusterStep with(State s, Instant started, Instant healthy, Instant finished) {
        return new ClusterStep(cluster, s, wave, started, healthy, finished, pausedAt);
    }

    public ClusterStep paused(Instant at) {
        return new ClusterStep(cluster, state, wave, startedAt, healthySince, finishedAt, at);
    }
}
