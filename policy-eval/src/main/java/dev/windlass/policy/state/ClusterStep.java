package dev.windlass.policy.state;

/**
 * One cluster's part in a rollout, with the times that decide it (ISO-8601, from the engine's clock).
 *
 * @param wave         1-based, for people: which wave the cluster is in
 * @param healthySince when the cluster was first seen Healthy at the new revision, reset when it is not
 * @param pausedAt     when a suspension stopped this step's clocks (soak and deadline do not run while frozen), or null
 */
public record ClusterStep(String cluster, State state, int wave, String startedAt, String healthySince, String finishedAt,
                          String pausedAt) {

    public enum State { Pending, Progressing, Succeeded, Failed, TimedOut, Skipped, RolledBack }

    public boolean finished() {
        return state != State.Pending && state != State.Progressing;
    }

    public boolean failed() { return state == State.Failed || state == State.TimedOut; }

    public ClusterStep with(State s, String started, String healthy, String finished) {
        return new ClusterStep(cluster, s, wave, started, healthy, finished, pausedAt);
    }

    public ClusterStep paused(String at) {
        return new ClusterStep(cluster, state, wave, startedAt, healthySince, finishedAt, at);
    }
}
