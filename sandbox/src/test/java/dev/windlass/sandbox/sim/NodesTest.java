package dev.windlass.sandbox.sim;

import dev.windlass.sandbox.ClusterSettings;
import dev.windlass.sandbox.Sandbox;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeCondition;
import io.fabric8.kubernetes.api.model.apps.DaemonSetBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.List;

import static dev.windlass.sandbox.sim.Fixtures.at;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A cluster comes with its nodes, Ready, and a node fault flips Ready on the next tick. */
class NodesTest {

    private Sandbox sandbox;
    private Simulator sim;
    private KubernetesClient client;

    @BeforeEach void start() {
        sim = Fixtures.simulator();
        sandbox = new Sandbox(ClusterSettings.defaults(), sim);
        client = sandbox.add("west", 3, 1).newClient();
    }

    @AfterEach void stop() {
        client.close();
        sandbox.close();
    }

    @Test void nodesExistAsSoonAsTheClusterIsAddedWithNamesLabelsAndReadyTrue() {
        List<Node> nodes = client.nodes().list().getItems();
        assertEquals(List.of("west-cp-1", "west-worker-1", "west-worker-2"),
                nodes.stream().map(n -> n.getMetadata().getName()).sorted().toList());
        Node cp = client.nodes().withName("west-cp-1").get();
        assertEquals("", cp.getMetadata().getLabels().get("node-role.kubernetes.io/control-plane"));
        assertFalse(client.nodes().withName("west-worker-1").get().getMetadata().getLabels()
                .containsKey("node-role.kubernetes.io/control-plane"));
        assertEquals(List.of("west-cp-1"), client.nodes().withLabel("node-role.kubernetes.io/control-plane").list()
                .getItems().stream().map(n -> n.getMetadata().getName()).toList());
        for (Node node : nodes) {
            NodeCondition ready = ready(node);
            assertEquals("True", ready.getStatus());
            assertEquals("2030-01-01T00:00:00Z", ready.getLastTransitionTime());
            assertNotNull(ready.getLastHeartbeatTime());
        }
    }

    @Test void nodeReadyFalseFlipsTheConditionWithANewTransitionTimeAndBack() {
        sim.nodeReady("west-worker-2", false);
        assertEquals("True", ready(node("west-worker-2")).getStatus(), "nothing changes before a tick");

        sim.tick(at(30));
        NodeCondition down = ready(node("west-worker-2"));
        assertEquals("False", down.getStatus());
        assertEquals("2030-01-01T00:00:30Z", down.getLastTransitionTime());
        assertEquals("True", ready(node("west-worker-1")).getStatus());

        sim.nodeReady("west-worker-2", true);
        sim.tick(at(40));
        NodeCondition up = ready(node("west-worker-2"));
        assertEquals("True", up.getStatus());
        assertEquals("2030-01-01T00:00:40Z", up.getLastTransitionTime());
    }

    @Test void aNotReadyNodeCountsAgainstDaemonSetReadiness() {
        client.apps().daemonSets().resource(new DaemonSetBuilder()
                .withNewMetadata().withName("agent").endMetadata()
                .withNewSpec().withNewSelector().addToMatchLabels("app", "agent").endSelector()
                .withNewTemplate().withNewMetadata().addToLabels("app", "agent").endMetadata()
                .withNewSpec().addNewContainer().withName("agent").withImage("agent:1").endContainer().endSpec()
                .endTemplate().endSpec().build()).create();
        sim.nodeReady("west-worker-1", false);
        sim.tick(at(0));
        sim.tick(at(2));
        var status = client.apps().daemonSets().withName("agent").get().getStatus();
        assertEquals(3, status.getDesiredNumberScheduled());
        assertEquals(2, status.getNumberReady());
        assertEquals(1, status.getNumberUnavailable());
    }

    @Test void aDeletedNodeComesBack() {
        client.nodes().withName("west-worker-1").delete();
        sim.tick(at(5));
        assertTrue(ready(node("west-worker-1")).getStatus().equals("True"));
    }

    @Test void unknownNodeIsRejected() {
        assertThrows(IllegalArgumentException.class, () -> sim.nodeReady("east-worker-1", false));
    }

    private Node node(String name) {
        return client.nodes().withName(name).get();
    }

    private static NodeCondition ready(Node node) {
        return node.getStatus().getConditions().stream().filter(c -> "Ready".equals(c.getType())).findFirst()
                .orElseThrow();
    }
}
