package dev.windlass.sandbox;

import dev.windlass.sandbox.sim.Simulator;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The fleet: clusters by name, one simulator, and a close that stops everything. */
class SandboxTest {

    @Test void clustersAreFoundByNameInTheOrderAdded() {
        try (Sandbox sandbox = new Sandbox()) {
            SandboxCluster b = sandbox.add("b", 1, 1);
            SandboxCluster a = sandbox.add("a", 2, 0);
            assertSame(a, sandbox.cluster("a"));
            assertEquals(List.of(b, a), sandbox.clusters());
            assertTrue(a.masterUrl().startsWith("http://127.0.0.1:"));
            assertEquals("default", a.config().getNamespace());
            assertThrows(IllegalArgumentException.class, () -> sandbox.cluster("c"));
            assertThrows(IllegalArgumentException.class, () -> sandbox.add("a", 1, 1));
            assertThrows(IllegalArgumentException.class, () -> sandbox.add("Not_A_Label", 1, 1));
            assertThrows(IllegalArgumentException.class, () -> sandbox.add("d", 1, 2));
        }
    }

    @Test void closeStopsEveryCluster() throws Exception {
        Sandbox sandbox = new Sandbox();
        SandboxCluster cluster = sandbox.add("gone", 1, 1);
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();
        HttpRequest readyz = HttpRequest.newBuilder(URI.create(cluster.masterUrl() + "readyz"))
                .timeout(Duration.ofSeconds(1)).build();
        assertEquals(200, http.send(readyz, HttpResponse.BodyHandlers.ofString()).statusCode());
        sandbox.close();
        assertThrows(IOException.class, () -> http.send(readyz, HttpResponse.BodyHandlers.ofString()));
        assertEquals(List.of(), sandbox.clusters());
    }

    @Test void startedSimulatorMakesWorkloadsReadyOnItsOwn() throws Exception {
        try (Sandbox sandbox = new Sandbox(ClusterSettings.defaults(), new Simulator(Duration.ofMillis(200)));
             KubernetesClient client = sandbox.add("demo", 2, 1).newClient()) {
            sandbox.simulator().start(Duration.ofMillis(50), Clock.systemUTC());
            client.apps().deployments().resource(new DeploymentBuilder()
                    .withNewMetadata().withName("web").endMetadata()
                    .withNewSpec().withReplicas(2).withNewSelector().addToMatchLabels("app", "web").endSelector()
                    .withNewTemplate().withNewMetadata().addToLabels("app", "web").endMetadata()
                    .withNewSpec().addNewContainer().withName("main").withImage("nginx").endContainer().endSpec()
                    .endTemplate().endSpec().build()).create();
            long deadline = System.nanoTime() + 10_000_000_000L;
            Integer ready = null;
            while (System.nanoTime() < deadline) {
                var status = client.apps().deployments().withName("web").get().getStatus();
                ready = status == null ? null : status.getReadyReplicas();
                if (ready != null && ready == 2) {
                    break;
                }
                Thread.sleep(50);
            }
            assertEquals(2, ready);
            assertThrows(IllegalStateException.class,
                    () -> sandbox.simulator().start(Duration.ofMillis(50), Clock.systemUTC()));
        }
    }
}
