package dev.windlass.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.windlass.policy.state.FailoverRecord;
import dev.windlass.sandbox.sim.WorkloadMatch;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The failover scenarios on sandbox clusters, and two the sandbox expresses more directly than a real cluster: an API
 * server that answers but says it is not ready (on a real one that means its etcd is gone, and then nothing answers),
 * and a failure injected three times over to fill the history.
 */
class FailoverE2E extends FailoverContract {
    @Override boolean real() { return false; }

    @Test
    void anApiServerThatIsNotReadyCountsAsANotReadyCluster() throws Exception {
        try (TestFleet fleet = start("Directly")) {
            fleet.sandbox.cluster("eu-1").apiNotReady(true);
            after(fleet, 5);
            var eu1 = fleet.engine.reconciler().state().clusters().get("eu-1");
            assertEquals(dev.windlass.policy.state.ClusterState.ClusterNotReady, eu1.health());
            assertTrue(eu1.conditions().get(0).message().startsWith("/readyz answered 500"), eu1.conditions().toString());
            after(fleet, 60);
            assertEquals(List.of("eu-2"), stream(fleet).placement());
            assertNull(ingest(fleet, "eu-1", "stream"), "Directly, and eu-1 still answers requests: removed at once");
            until(fleet, FailoverContract::failedOver, "healthy on eu-2");
            assertEquals(dev.windlass.policy.state.EvictionReason.ClusterNotReady, stream(fleet).failoverMemory().history().get(0).reason());
        }
    }

    @Test
    void historyKeepsTheNewestEntriesOldestFirst() throws Exception {
        try (TestFleet fleet = start("Directly", 2, "", ONE_PROD_CLUSTER)) {
            List<String> from = new java.util.ArrayList<>();
            for (int round = 0; round < 3; round++) {
                String on = stream(fleet).placement().get(0);
                from.add(on);
                WorkloadMatch fault = WorkloadMatch.named("stream", "Deployment", "ingest").onCluster(on);
                fleet.sandbox.simulator().workloadNeverReady(fault, true);
                int before = stream(fleet).failoverMemory().history().size();
                java.time.Instant start = fleet.clock.instant();
                until(fleet, a -> a.failoverMemory().history().size() > before || before == 2 && !a.placement().contains(on), "moved off " + on);
                until(fleet, a -> a.failoverMemory().eviction(on) == null || a.failoverMemory().eviction(on).completedAt() != null, "done");
                fleet.sandbox.simulator().workloadNeverReady(fault, false);
                assertTrue(start.compareTo(stream(fleet).failoverMemory().history().get(stream(fleet).failoverMemory().history().size() - 1).startTime()) <= 0);
                // the cluster left behind returns to the pool after the toleration
                for (int i = 0; i < 10 && stream(fleet).failoverMemory().eviction(on) != null; i++) after(fleet, 10);
            }
            List<FailoverRecord> history = stream(fleet).failoverMemory().history();
            assertEquals(2, history.size(), "historyLimit 2");
            assertEquals(List.of(from.get(1)), history.get(0).clustersBeforeFailover(), "the oldest entry was dropped");
            assertEquals(List.of(from.get(2)), history.get(1).clustersBeforeFailover(), "newest last");
            assertTrue(history.get(0).startTime().compareTo(history.get(1).startTime()) < 0);
        }
    }
}
