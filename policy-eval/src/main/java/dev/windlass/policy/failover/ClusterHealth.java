package dev.windlass.policy.failover;

import dev.windlass.policy.observe.ClusterObservation;
import dev.windlass.policy.state.ClusterState;
import dev.windlass.policy.state.ClusterStatus;
import java.time.Instant;

/**
 * A cluster's health as failover sees it, with its clocks: unreachable (no answer), not ready (its API
 * server's {@code /readyz} fails, or no node is Ready), or healthy. The clocks continue from what the status
 * branch recorded, so a restarted engine neither resets a toleration nor counts it twice.
 *
 * @param since when the cluster entered its current state without a break
 */
public record ClusterHealth(String cluster, ClusterState state, String message, Instant since) {

    public boolean healthy() { return state == ClusterState.Healthy; }

    /** How long it has been in its current state at {@code now}, in whole seconds. */
    public long secondsIn(Instant now) { return Math.max(0, now.getEpochSecond() - since.getEpochSecond()); }

    public static ClusterHealth of(ClusterObservation obs, ClusterStatus previous, Instant now) {
        ClusterState state;
        String message;
        if (!obs.reachable()) {
            state = ClusterState.ClusterUnreachable;
            message = obs.message();
        } else if (!obs.notReady().isEmpty()) {
            state = ClusterState.ClusterNotReady;
            message = obs.notReady();
        } else if (obs.nodes().stream().noneMatch(n -> n.ready())) {
            state = ClusterState.ClusterNotReady;
            message = obs.nodes().isEmpty() ? "no node is registered" : "no Ready node (0 of " + obs.nodes().size() + ")";
        } else {
            state = ClusterState.Healthy;
            message = "";
        }
        return new ClusterHealth(obs.cluster(), state, message, since(state, previous, now));
    }

    /** Unhealthy states share one clock: unreachable, then not ready, is one outage. */
    private static Instant since(ClusterState state, ClusterStatus previous, Instant now) {
        if (previous == null) return now;
        Instant recorded = state == ClusterState.Healthy ? previous.healthySince() : previous.unhealthySince();
        return recorded == null ? now : recorded;
    }
}
