package dev.windlass.applier;

import static dev.windlass.applier.support.Fixtures.configMap;
import static dev.windlass.applier.support.Fixtures.create;
import static dev.windlass.applier.support.Fixtures.delete;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.windlass.applier.cluster.ClientSettings;
import dev.windlass.applier.cluster.ClusterClients;
import dev.windlass.applier.support.MockCluster;
import dev.windlass.policy.model.ObjectRef;
import dev.windlass.policy.observe.KindRef;
import dev.windlass.policy.observe.ObservedState;
import dev.windlass.policy.plan.ActionResult;
import dev.windlass.policy.plan.Outcome;
import dev.windlass.policy.plan.Stage;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A dead cluster (nothing listening) and a silent one (accepts connections, never answers) next to a live
 * one: each fails within its own deadline while the live cluster is observed and written normally.
 */
class UnreachableClusterTest {

    private static final Duration DEADLINE = Duration.ofSeconds(2);
    /** Deadlines are what bounds a silent cluster here, not the client's own request timeout. */
    private static final ClientSettings SLOW_CLIENT =
            new ClientSettings(Duration.ofSeconds(2), Duration.ofSeconds(20), 1, Duration.ofMillis(100));
    private static final Set<KindRef> CONFIG_MAPS = Set.of(new KindRef("v1", "ConfigMap"));

    private final MockCluster live = MockCluster.crud();
    private ServerSocket silent;
    private Applier applier;

    @BeforeEach void start() throws IOException {
        live.client().namespaces().list();  // load the client's classes before anything is timed
        // And an applier's own read of the live cluster, with time to spare: a cold JVM on a loaded machine took longer
        // than the deadline for its first answer, and these tests are about the dead and silent clusters.
        ClusterClients warmUp = new ClusterClients(SLOW_CLIENT);
        warmUp.register("live", live.config(), true);
        try (Applier first = new Applier(warmUp, new ApplierSettings(8, Duration.ofSeconds(60), Duration.ofSeconds(60)))) {
            first.observe(Map.of("live", CONFIG_MAPS));
        }
        silent = new ServerSocket(0, 50, InetAddress.getByName("127.0.0.1"));
        ClusterClients clients = new ClusterClients(SLOW_CLIENT);
        clients.register("live", live.config(), true);
        clients.register("dead", at(closedPort()), true);
        clients.register("silent", at(silent.getLocalPort()), true);
        applier = new Applier(clients, new ApplierSettings(8, DEADLINE, DEADLINE));
    }

    @AfterEach void stop() throws IOException {
        applier.close();
        silent.close();
        live.close();
    }

    @Test void deadAndSilentClustersAreUnreachableWithinTheirDeadlineWhileTheLiveOneIsObserved() {
        long start = System.nanoTime();
        ObservedState state = applier.observe(Map.of("live", CONFIG_MAPS, "dead", CONFIG_MAPS, "silent", CONFIG_MAPS));
        Duration took = Duration.ofNanos(System.nanoTime() - start);

        assertTrue(state.cluster("live").reachable(), state.cluster("live").message());
        assertFalse(state.cluster("dead").reachable());
        assertTrue(state.cluster("dead").message().contains("refused"), state.cluster("dead").message());
        assertFalse(state.cluster("silent").reachable());
        assertTrue(state.cluster("silent").message().startsWith("did not answer within "), state.cluster("silent").message());
        assertTrue(state.cluster("silent").message().contains(", while 2 of the pass's 2 other clusters answered"),
                "given up on once its peers answered: " + state.cluster("silent").message());
        assertTrue(took.compareTo(DEADLINE.plusSeconds(2)) < 0, "took " + took);
    }

    @Test void deadClusterFailsFastWellUnderTheDeadline() {
        long start = System.nanoTime();
        ObservedState state = applier.observe(Map.of("dead", CONFIG_MAPS));
        Duration took = Duration.ofNanos(System.nanoTime() - start);

        assertFalse(state.cluster("dead").reachable());
        assertTrue(took.compareTo(DEADLINE.dividedBy(2)) < 0, "took " + took);
    }

    @Test void actionsOnADeadClusterFailTransientlyWithoutBeingTriedAndTheLiveClusterIsWritten() {
        var stage = new Stage("apply", "", List.of(
                create("live", configMap("demo", "a", "1")),
                create("dead", configMap("demo", "a", "1")),
                create("live", configMap("demo", "b", "1")),
                create("dead", configMap("demo", "b", "1")),
                delete("dead", new ObjectRef("", "ConfigMap", "demo", "old"))));

        List<ActionResult> results = applier.execute(stage);

        assertEquals(stage.actions(), results.stream().map(ActionResult::action).toList(), "stage order");
        assertEquals(Outcome.Created, results.get(0).outcome());
        assertEquals(Outcome.Created, results.get(2).outcome());
        assertTrue(results.get(1).message().contains("refused"), results.get(1).message());
        for (int i : new int[] {1, 3, 4}) {
            assertEquals(Outcome.Failed, results.get(i).outcome());
            assertTrue(results.get(i).transientFailure());
        }
        assertEquals("skipped: cluster dead unreachable", results.get(3).message());
        assertEquals("skipped: cluster dead unreachable", results.get(4).message());
    }

    @Test void silentClusterRunsOutOfTimeWhileTheLiveClusterIsWritten() {
        var stage = new Stage("apply", "", List.of(
                create("silent", configMap("demo", "a", "1")),
                create("silent", configMap("demo", "b", "1")),
                create("live", configMap("demo", "c", "1"))));

        long start = System.nanoTime();
        List<ActionResult> results = applier.execute(stage);
        Duration took = Duration.ofNanos(System.nanoTime() - start);

        assertEquals(Outcome.Failed, results.get(0).outcome());
        assertTrue(results.get(0).transientFailure());
        assertTrue(results.get(0).message().startsWith("timed out after 2s"), results.get(0).message());
        assertEquals("skipped: cluster silent timed out", results.get(1).message());
        assertEquals(Outcome.Created, results.get(2).outcome());
        assertTrue(took.compareTo(DEADLINE.plusSeconds(2)) < 0, "took " + took);
    }

    private static Config at(int port) {
        return new ConfigBuilder(Config.empty()).withMasterUrl("http://127.0.0.1:" + port).build();
    }

    private static int closedPort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            return s.getLocalPort();
        }
    }
}
