package dev.windlass.policy.failover;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.windlass.policy.observe.ClusterObservation;
import dev.windlass.policy.observe.NodeObservation;
import dev.windlass.policy.state.ClusterStatus;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ClusterHealthTest {
    static final Instant T0 = Instant.parse("2026-11-21T10:00:00Z");
    static final Instant NOW = T0.plusSeconds(90);

    static ClusterObservation reachable(String notReady, boolean... nodesReady) {
        List<NodeObservation> nodes = new java.util.ArrayList<>();
        for (int i = 0; i < nodesReady.length; i++) nodes.add(new NodeObservation("n" + i, Map.of(), nodesReady[i]));
        return new ClusterObservation("eu-1", dev.windlass.policy.state.Reachability.Reachable, "", Map.of(), Set.of(), nodes, true, Map.of(), notReady);
    }

    static ClusterStatus recorded(dev.windlass.policy.state.ClusterState health, String unhealthySince, String healthySince) {
        return new ClusterStatus("eu-1", "clusters/eu-1.yaml", dev.windlass.policy.state.Reachability.Reachable, "", "ServerSide", 2, 2, List.of(), health,
                unhealthySince == null ? null : Instant.parse(unhealthySince), healthySince == null ? null : Instant.parse(healthySince));
    }

    @Test
    void statesAndWhy() {
        assertEquals(dev.windlass.policy.state.ClusterState.ClusterUnreachable, ClusterHealth.of(ClusterObservation.unreachable("eu-1", "timeout"), null, NOW).state());
        ClusterHealth readyz = ClusterHealth.of(reachable("/readyz answered 500: [-]etcd failed", true), null, NOW);
        assertEquals(dev.windlass.policy.state.ClusterState.ClusterNotReady, readyz.state());
        assertEquals("/readyz answered 500: [-]etcd failed", readyz.message());
        assertEquals("no Ready node (0 of 2)", ClusterHealth.of(reachable("", false, false), null, NOW).message());
        assertEquals("no node is registered", ClusterHealth.of(reachable(""), null, NOW).message());
        assertEquals(dev.windlass.policy.state.ClusterState.Healthy, ClusterHealth.of(reachable("", false, true), null, NOW).state());
    }

    @Test
    void theClockContinuesFromTheRecordAcrossUnhealthyStatesAndRestartsOnRecovery() {
        ClusterStatus downSinceT0 = recorded(dev.windlass.policy.state.ClusterState.ClusterUnreachable, T0.toString(), null);
        ClusterHealth stillDown = ClusterHealth.of(reachable("", false), downSinceT0, NOW);
        assertEquals(dev.windlass.policy.state.ClusterState.ClusterNotReady, stillDown.state());
        assertEquals(T0, stillDown.since(), "unreachable then not ready is one outage");
        assertEquals(90, stillDown.secondsIn(NOW));
        ClusterHealth back = ClusterHealth.of(reachable("", true), downSinceT0, NOW);
        assertEquals(NOW, back.since(), "healthy again: a new clock");
        assertEquals(T0, ClusterHealth.of(reachable("", true), recorded(dev.windlass.policy.state.ClusterState.Healthy, null, T0.toString()), NOW).since());
    }
}
