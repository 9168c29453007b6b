package dev.windlass.applier.observe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.windlass.applier.cluster.ClusterClients;
import dev.windlass.applier.kube.Failures;
import dev.windlass.applier.kube.OwnershipMarks;
import dev.windlass.applier.support.MockCluster;
import dev.windlass.policy.model.ObjectRef;
import dev.windlass.policy.observe.ClusterObservation;
import dev.windlass.policy.state.Health;
import dev.windlass.policy.observe.KindRef;
import dev.windlass.policy.observe.NodeObservation;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** One pass's view of a cluster: managed objects with health, namespaces, nodes. */
class ObserverTest {

    private static final KindRef DEPLOYMENTS = new KindRef("apps/v1", "Deployment");
    private static final KindRef CONFIG_MAPS = new KindRef("v1", "ConfigMap");
    private static final KindRef WIDGETS = new KindRef("example.com/v1", "Widget");

    private final MockCluster cluster = MockCluster.crud();
    private final ClusterClients clients = new ClusterClients();
    private final Observer observer = new Observer(clients);

    @BeforeEach void seed() {
        var k = cluster.client();
        k.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName("demo").endMetadata().build()).create();
        k.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName("kube-system").endMetadata().build()).create();
        k.nodes().resource(new NodeBuilder().withNewMetadata().withName("node-a").addToLabels("zone", "a").endMetadata()
                .withNewStatus().addNewCondition().withType("Ready").withStatus("True").endCondition().endStatus().build()).create();
        k.nodes().resource(new NodeBuilder().withNewMetadata().withName("node-b").endMetadata()
                .withNewStatus().addNewCondition().withType("Ready").withStatus("False").endCondition().endStatus().build()).create();
        k.apps().deployments().inNamespace("demo").resource(new DeploymentBuilder()
                .withNewMetadata().withName("web").withNamespace("demo").addToLabels(OwnershipMarks.MANAGED_BY, "windlass").endMetadata()
                .withNewSpec().withReplicas(1).endSpec()
                .withNewStatus().withObservedGeneration(1L).withReplicas(1).withUpdatedReplicas(1).endStatus().build()).create();
        k.configMaps().inNamespace("demo").resource(new ConfigMapBuilder()
                .withNewMetadata().withName("settings").withNamespace("demo").addToLabels(OwnershipMarks.MANAGED_BY, "windlass").endMetadata()
                .addToData("a", "b").build()).create();
        k.configMaps().inNamespace("kube-system").resource(new ConfigMapBuilder()
                .withNewMetadata().withName("not-ours").withNamespace("kube-system").addToLabels(OwnershipMarks.MANAGED_BY, "someone-else").endMetadata()
                .build()).create();
        k.configMaps().inNamespace("demo").resource(new ConfigMapBuilder()
                .withNewMetadata().withName("unlabelled").withNamespace("demo").endMetadata().build()).create();
    }

    @AfterEach void stop() {
        clients.close();
        cluster.close();
    }

    @Test void listsOnlyWhatWindlassManagesWithHealth() {
        clients.register("eu-1", cluster.config(), true);

        ClusterObservation seen = observer.observe("eu-1", Set.of(DEPLOYMENTS, CONFIG_MAPS));

        assertTrue(seen.reachable(), seen.message());
        assertEquals("", seen.message());
        var web = new ObjectRef("apps", "Deployment", "demo", "web");
        var settings = new ObjectRef("", "ConfigMap", "demo", "settings");
        assertEquals(Set.of(web, settings), seen.objects().keySet());
        // The controller has not made the one replica available yet.
        assertEquals(Health.Progressing, seen.objects().get(web).health());
        assertTrue(seen.objects().get(web).healthMessage().contains("0 of 1 updated replicas are available"));
        assertEquals(Health.Healthy, seen.objects().get(settings).health());
        assertEquals("b", ((java.util.Map<?, ?>) seen.objects().get(settings).body().get("data")).get("a"));
        assertEquals(Set.of("demo", "kube-system"), seen.namespaces());
        assertEquals(List.of(new NodeObservation("node-a", java.util.Map.of("zone", "a"), true),
                new NodeObservation("node-b", java.util.Map.of(), false)), seen.nodes());
        assertTrue(seen.serverSideApply());
        assertEquals("", seen.notReady(), "the API server answered /readyz with 200");
    }

    @Test void apiServerThatIsNotReadyIsReachableAndSaysWhichChecksFailed() {
        try (MockCluster failing = MockCluster.mixed()) {
            failing.server().expect().get().withPath("/readyz")
                    .andReturn(500, "[+]ping ok\n[+]log ok\n[-]etcd failed: reason withheld\nreadyz check failed\n").always();
            clients.register("eu-2", failing.config(), true);
            failing.takeRequests();

            ClusterObservation seen = observer.observe("eu-2", Set.of(CONFIG_MAPS));

            assertTrue(seen.reachable(), seen.message());
            assertEquals("", seen.message());
            assertEquals("/readyz answered 500: [-]etcd failed: reason withheld", seen.notReady());
            assertEquals(1, failing.takeRequests().stream().filter(r -> r.equals("GET /readyz")).count(), "one probe, not retried");
        }
    }

    @Test void noAnswerToReadyzIsAConnectionFailureLikeOnTheOtherProbes() throws Exception {
        int port;
        try (java.net.ServerSocket s = new java.net.ServerSocket(0, 1, java.net.InetAddress.getByName("127.0.0.1"))) {
            port = s.getLocalPort();
        }
        Config nowhere = new ConfigBuilder(cluster.config()).withMasterUrl("http://127.0.0.1:" + port + "/").build();
        try (KubernetesClient client = new KubernetesClientBuilder().withConfig(nowhere).build()) {
            KubernetesClientException e = assertThrows(KubernetesClientException.class, () -> Observer.notReady(client));
            assertEquals(Failures.Kind.Unreachable, Failures.classify(e));
            assertEquals("connection refused", Failures.describe(e));
        }
    }

    @Test void aFailedReadyzWithoutListedChecksIsToldByItsFirstLine() {
        assertEquals("etcd is gone", Observer.whatFailed("\n  etcd is gone\nsecond line\n"));
        assertEquals("[-]etcd failed: x, [-]informer-sync failed: y",
                Observer.whatFailed("[+]ping ok\n[-]etcd failed: x\n[-]informer-sync failed: y\nreadyz check failed"));
        assertEquals("", Observer.whatFailed(""));
        assertEquals("", Observer.whatFailed(null));
        assertEquals(303, Observer.whatFailed("x".repeat(1000)).length());
    }

    @Test void sandboxClustersHaveNoServerSideApply() {
        clients.registerSandbox("sandbox-1", cluster.config());

        assertFalse(observer.observe("sandbox-1", Set.of(CONFIG_MAPS)).serverSideApply());
    }

    @Test void kindTheClusterDoesNotServeIsReportedAndTheRestObserved() {
        clients.register("eu-1", cluster.config(), true);

        ClusterObservation seen = observer.observe("eu-1", Set.of(WIDGETS, CONFIG_MAPS));

        assertTrue(seen.reachable());
        assertTrue(seen.message().contains("cannot list Widget (example.com/v1)"), seen.message());
        assertEquals(Set.of(new ObjectRef("", "ConfigMap", "demo", "settings")), seen.objects().keySet());
    }

    @Test void clusterNeverConnectedIsUnreachable() {
        ClusterObservation seen = observer.observe("nowhere", Set.of(CONFIG_MAPS));

        assertFalse(seen.reachable());
        assertTrue(seen.message().contains("no connection configured"), seen.message());
    }
}
