package dev.windlass.applier;

import static dev.windlass.applier.support.Fixtures.configMap;
import static dev.windlass.applier.support.Fixtures.create;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.windlass.applier.cluster.ClusterClients;
import dev.windlass.applier.support.MockCluster;
import dev.windlass.policy.observe.KindRef;
import dev.windlass.policy.plan.Action;
import dev.windlass.policy.plan.ActionResult;
import dev.windlass.policy.plan.Outcome;
import dev.windlass.policy.plan.Stage;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Stages across several clusters: order of results, gating per cluster, clusters without a connection. */
class ApplierTest {

    private final MockCluster east = MockCluster.crud();
    private final MockCluster west = MockCluster.crud();
    private Applier applier;

    private final Action eastA = create("east", configMap("demo", "a", "1"));
    private final Action westA = create("west", configMap("demo", "a", "1"));
    private final Action eastB = create("east", configMap("demo", "b", "1"));
    private final Action westB = create("west", configMap("demo", "b", "1"));
    private final Stage stage = new Stage("apply", "", List.of(eastA, westA, eastB, westB));

    @BeforeEach void start() {
        ClusterClients clients = new ClusterClients();
        clients.register("east", east.config(), true);
        clients.register("west", west.config(), true);
        applier = new Applier(clients);
    }

    @AfterEach void stop() {
        applier.close();
        east.close();
        west.close();
    }

    @Test void resultsComeInTheStagesOrder() {
        List<ActionResult> results = applier.execute(stage);

        assertEquals(stage.actions(), results.stream().map(ActionResult::action).toList());
        assertTrue(results.stream().allMatch(r -> r.outcome() == Outcome.Created));
        assertEquals("1", west.client().configMaps().inNamespace("demo").withName("b").get().getData().get("key"));
    }

    @Test void onlyTheGivenClustersAreWritten() {
        List<ActionResult> results = applier.execute(stage, Set.of("west"));

        assertEquals(List.of(westA, westB), results.stream().map(ActionResult::action).toList());
        assertTrue(east.client().configMaps().inNamespace("demo").list().getItems().isEmpty());
        assertEquals(2, west.client().configMaps().inNamespace("demo").list().getItems().size());
    }

    @Test void clusterWithoutConnectionFailsTransientlyAndIsObservedUnreachable() {
        Action elsewhere = create("nowhere", configMap("demo", "a", "1"));

        List<ActionResult> results = applier.execute(new Stage("apply", "", List.of(elsewhere, eastA)));

        assertEquals(Outcome.Failed, results.get(0).outcome());
        assertTrue(results.get(0).transientFailure());
        assertTrue(results.get(0).message().contains("no connection configured"), results.get(0).message());
        assertEquals(Outcome.Created, results.get(1).outcome());
        var observed = applier.observe(Map.of("nowhere", Set.of(new KindRef("v1", "ConfigMap"))));
        assertFalse(observed.cluster("nowhere").reachable());
    }

    @Test void writtenObjectsAreObservedAsManagedOnTheNextPass() {
        applier.execute(stage);

        var observed = applier.observe(Map.of("east", Set.of(new KindRef("v1", "ConfigMap")), "west", Set.of()));

        assertEquals(2, observed.cluster("east").objects().size());
        assertTrue(observed.cluster("west").reachable());
        assertTrue(observed.cluster("west").objects().isEmpty(), "no kinds asked for");
    }

    /**
     * A manifest the client cannot write (a count past int32, which the parser refuses before this, but an applier may
     * still be handed one) fails alone: the cluster answered nothing wrong, so the application's next object is applied.
     */
    @Test void anObjectTheClientCannotWriteFailsAloneAndTheNextObjectIsApplied() {
        Action overflow = create("east", dev.windlass.applier.support.Fixtures.manifest("""
                apiVersion: apps/v1
                kind: Deployment
                metadata: {name: big, namespace: demo}
                spec:
                  replicas: 99999999999
                  selector: {matchLabels: {a: b}}
                  template: {metadata: {labels: {a: b}}, spec: {containers: [{name: c, image: x}]}}
                """));
        Action next = create("east", configMap("demo", "after", "1"));

        List<ActionResult> results = applier.execute(new Stage("apply", "", List.of(overflow, next)));

        assertEquals(Outcome.Failed, results.get(0).outcome());
        assertFalse(results.get(0).transientFailure());
        assertFalse(results.get(0).message().contains("unreachable"), results.get(0).message());
        assertEquals(Outcome.Created, results.get(1).outcome(), "not skipped as if the cluster were gone: " + results.get(1).message());
    }
}
