package dev.windlass.policy.plan;

import dev.windlass.policy.failover.ClusterHealth;
import dev.windlass.policy.observe.ClusterObservation;
import dev.windlass.policy.state.ClusterState;
import dev.windlass.policy.state.ClusterStatus;
import dev.windlass.policy.state.Condition;
import dev.windlass.policy.state.Reachability;
import java.time.Instant;
import java.util.List;

/**
 * Folds one pass's observation of a cluster into its recorded status: reachability, apply strategy, nodes, the Ready
 * condition and health clock, the server's version; and an event when it became reachable, unreachable, ready or not ready.
 */
final class ClusterRecord {
    private ClusterRecord() {}

    static ClusterStatus next(String name, String definedIn, ClusterObservation obs, ClusterStatus prev, Instant now, List<Event> events) {
        if (obs == null) obs = ClusterObservation.unreachable(name, "not observed");
        Reachability reach = obs.reachability();
        if (prev != null && prev.reachability() != reach) {
            events.add(obs.reachable() ? new Event.ClusterReachable(name) : new Event.ClusterUnreachable(name, obs.message()));
        }
        String strategy = obs.reachable() ? (obs.serverSideApply() ? "ServerSide" : "ClientSide (this cluster has no server-side apply)")
                : prev == null ? "" : prev.applyStrategy();
        long ready = obs.nodes().stream().filter(n -> n.ready()).count();
        ClusterHealth health = ClusterHealth.of(obs, prev, now);
        boolean notReady = health.state() == ClusterState.ClusterNotReady;
        ClusterState before = prev == null ? null : prev.health();
        if (obs.reachable() && before != null && before != health.state() && (notReady || before == ClusterState.ClusterNotReady)) {
            events.add(notReady ? new Event.ClusterNotReady(name, health.message()) : new Event.ClusterReady(name));
        }
        Condition c = new Condition("Ready", Condition.Status.of(health.healthy()),
                health.healthy() ? "Reachable" : notReady ? "NotReady" : "Unreachable", health.message(), now);
        return new ClusterStatus(name, definedIn, reach, obs.reachable() ? "" : obs.message(), strategy,
                obs.reachable() ? obs.nodes().size() : prev == null ? 0 : prev.nodes(),
                obs.reachable() ? (int) ready : prev == null ? 0 : prev.readyNodes(),
                List.of(c.since(prev == null ? null : prev.conditions().stream().filter(x -> x.type().equals("Ready")).findFirst().orElse(null))),
                health.state(), health.healthy() ? null : health.since(), health.healthy() ? health.since() : null,
                null, obs.reachable() && obs.server().known() ? obs.server().version() : prev == null ? null : prev.kubernetesVersion(),
                obs.reachable() && obs.server().known() ? obs.server().apiVersions() : prev == null ? null : prev.apiVersions());
    }

}
