package dev.windlass.kubetest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.apps.DaemonSet;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.policy.v1.Eviction;
import io.fabric8.kubernetes.api.model.policy.v1.EvictionBuilder;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A whole control plane from the real binaries: workloads become ready through the real controllers, the scheduler
 * and kwok's fake kubelets; a node whose heartbeat stops goes not ready through the node-lifecycle controller; a
 * frozen API server accepts connections and never answers. Nothing here writes a status.
 */
class KubeClusterIT {

    private static KubeCluster cluster;
    private static KubernetesClient client;

    @BeforeAll static void start() {
        cluster = KubeCluster.start(2);
        client = cluster.newClient();
    }

    @AfterAll static void stop() {
        client.close();
        cluster.close();
    }

    private static <T> T load(Class<T> type, String yaml) {
        return client.getKubernetesSerialization().unmarshal(new ByteArrayInputStream(yaml.getBytes(StandardCharsets.UTF_8)), type);
    }

    @Test void workloadsBecomeReadyThroughTheRealControllers() {
        client.apps().deployments().inNamespace("default").resource(load(Deployment.class, """
                apiVersion: apps/v1
                kind: Deployment
                metadata: {name: web}
                spec:
                  replicas: 3
                  selector: {matchLabels: {app: web}}
                  template:
                    metadata: {labels: {app: web}}
                    spec: {containers: [{name: web, image: nginx}]}
                """)).create();
        client.apps().statefulSets().inNamespace("default").resource(load(StatefulSet.class, """
                apiVersion: apps/v1
                kind: StatefulSet
                metadata: {name: db}
                spec:
                  replicas: 2
                  serviceName: db
                  selector: {matchLabels: {app: db}}
                  template:
                    metadata: {labels: {app: db}}
                    spec: {containers: [{name: db, image: postgres}]}
                  volumeClaimTemplates:
                  - metadata: {name: data}
                    spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}}
                """)).create();
        client.apps().daemonSets().inNamespace("default").resource(load(DaemonSet.class, """
                apiVersion: apps/v1
                kind: DaemonSet
                metadata: {name: agent}
                spec:
                  selector: {matchLabels: {app: agent}}
                  template:
                    metadata: {labels: {app: agent}}
                    spec: {containers: [{name: agent, image: busybox}]}
                """)).create();
        client.batch().v1().jobs().inNamespace("default").resource(load(Job.class, """
                apiVersion: batch/v1
                kind: Job
                metadata: {name: once}
                spec:
                  template:
                    spec: {restartPolicy: Never, containers: [{name: once, image: busybox}]}
                """)).create();

        Duration limit = Duration.ofSeconds(60);
        try {
            Await.until(limit, "Deployment web available", () -> client.apps().deployments().inNamespace("default").withName("web").get(),
                    d -> d.getStatus() != null && Integer.valueOf(3).equals(d.getStatus().getAvailableReplicas()));
            Await.until(limit, "StatefulSet db ready, its volumes bound", () -> client.apps().statefulSets().inNamespace("default").withName("db").get(),
                    s -> s.getStatus() != null && Integer.valueOf(2).equals(s.getStatus().getReadyReplicas()));
        } catch (AssertionError notReady) {
            // Seen on a loaded machine (a third web Pod, or the second db Pod, never Ready): say where each Pod, claim
            // and volume stands, and what the kubelets and the provisioner last said.
            throw new AssertionError(notReady.getMessage().substring(0, Math.min(200, notReady.getMessage().length()))
                    + whereThingsStand(), notReady);
        }
        Await.until(limit, "DaemonSet agent ready on every node", () -> client.apps().daemonSets().inNamespace("default").withName("agent").get(),
                d -> d.getStatus() != null && d.getStatus().getDesiredNumberScheduled() >= 2
                        && d.getStatus().getNumberReady() == d.getStatus().getDesiredNumberScheduled());
        Await.until(limit, "Job once complete", () -> client.batch().v1().jobs().inNamespace("default").withName("once").get(),
                j -> j.getStatus() != null && Integer.valueOf(1).equals(j.getStatus().getSucceeded()));
        assertEquals("Bound", client.persistentVolumeClaims().inNamespace("default").withName("data-db-0").get().getStatus().getPhase());
        List<Pod> pods = client.pods().inNamespace("default").withLabel("app", "web").list().getItems();
        assertEquals(3, pods.size());
        assertTrue(pods.stream().allMatch(p -> p.getSpec().getNodeName() != null && p.getStatus().getPodIP() != null), "scheduled and running");
    }

    private String whereThingsStand() {
        StringBuilder out = new StringBuilder();
        client.pods().inNamespace("default").list().getItems().forEach(p -> out.append("\npod ").append(p.getMetadata().getName())
                .append(" on ").append(p.getSpec().getNodeName()).append(": ").append(p.getStatus().getPhase()).append(' ')
                .append(p.getStatus().getConditions().stream().map(c -> c.getType() + "=" + c.getStatus() + "(" + c.getReason() + ")").toList()));
        client.persistentVolumeClaims().inNamespace("default").list().getItems().forEach(c -> out.append("\nclaim ")
                .append(c.getMetadata().getName()).append(": ").append(c.getStatus().getPhase()).append(" volume ")
                .append(c.getSpec().getVolumeName()));
        client.persistentVolumes().list().getItems().forEach(v -> out.append("\nvolume ").append(v.getMetadata().getName())
                .append(": ").append(v.getStatus().getPhase()).append(" claim ")
                .append(v.getSpec().getClaimRef() == null ? null : v.getSpec().getClaimRef().getName()));
        return out.append('\n').append(cluster.controllerLogs(10)).toString();
    }

    @Test void aDisruptionBudgetRefusesAnEvictionThroughTheRealDisruptionController() {
        client.apps().deployments().inNamespace("default").resource(load(Deployment.class, """
                apiVersion: apps/v1
                kind: Deployment
                metadata: {name: guarded}
                spec:
                  replicas: 1
                  selector: {matchLabels: {app: guarded}}
                  template:
                    metadata: {labels: {app: guarded}}
                    spec: {containers: [{name: c, image: nginx}]}
                """)).create();
        client.policy().v1().podDisruptionBudget().inNamespace("default").resource(load(io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget.class, """
                apiVersion: policy/v1
                kind: PodDisruptionBudget
                metadata: {name: guarded}
                spec: {minAvailable: 1, selector: {matchLabels: {app: guarded}}}
                """)).create();
        Await.until(Duration.ofSeconds(60), "the budget computed by the disruption controller",
                () -> client.policy().v1().podDisruptionBudget().inNamespace("default").withName("guarded").get(),
                b -> b.getStatus() != null && b.getStatus().getCurrentHealthy() == 1 && b.getStatus().getExpectedPods() == 1);
        Pod pod = client.pods().inNamespace("default").withLabel("app", "guarded").list().getItems().get(0);
        Eviction eviction = new EvictionBuilder().withNewMetadata().withName(pod.getMetadata().getName()).withNamespace("default").endMetadata().build();

        boolean evicted = client.pods().inNamespace("default").withName(pod.getMetadata().getName()).evict(eviction);

        assertEquals(false, evicted, "the budget holds the only pod");
        assertNotNull(client.pods().inNamespace("default").withName(pod.getMetadata().getName()).get());
    }

    @Test void aNodeWhoseHeartbeatStopsGoesNotReadyAndComesBack() {
        cluster.addNode(KubeCluster.NodeSpec.named("flaky"));
        long stopped = System.nanoTime();

        cluster.stopHeartbeat("flaky");
        cluster.awaitNodeReady("flaky", false);
        long tookSeconds = (System.nanoTime() - stopped) / 1_000_000_000;

        var ready = client.nodes().withName("flaky").get().getStatus().getConditions().stream()
                .filter(c -> "Ready".equals(c.getType())).findFirst().orElseThrow();
        assertEquals("Unknown", ready.getStatus(), "set by the node-lifecycle controller: " + ready);
        assertEquals("NodeStatusUnknown", ready.getReason());
        assertTrue(tookSeconds >= KubeCluster.NODE_MONITOR_GRACE_SECONDS - 3, "not before the grace period: " + tookSeconds + " s");

        cluster.resumeHeartbeat("flaky");
        cluster.awaitNodeReady("flaky", true);
    }

    @Test void aFrozenApiServerAcceptsConnectionsButNeverAnswers() {
        try (KubernetesClient impatient = new KubernetesClientBuilder().withConfig(new ConfigBuilder(cluster.config())
                .withRequestTimeout(1_000).withConnectionTimeout(1_000).withRequestRetryBackoffLimit(0).build()).build()) {
            cluster.freeze();
            try {
                KubernetesClientException e = assertThrows(KubernetesClientException.class,
                        () -> impatient.namespaces().withName("default").get());
                for (Throwable t = e; t != null; t = t.getCause()) {
                    assertTrue(!(t instanceof java.net.ConnectException), "the port still accepts connections: " + e);
                }
            } finally {
                cluster.thaw();
            }
            assertNotNull(impatient.namespaces().withName("default").get(), "answers again once thawed");
        }
    }

    @Test void anApiServerThatIsDownRefusesConnectionsAndComesBackWithItsData() {
        client.configMaps().inNamespace("default").resource(new io.fabric8.kubernetes.api.model.ConfigMapBuilder()
                .withNewMetadata().withName("kept").endMetadata().addToData("k", "v").build()).create();
        try (KubernetesClient impatient = new KubernetesClientBuilder().withConfig(new ConfigBuilder(cluster.config())
                .withRequestTimeout(2_000).withConnectionTimeout(2_000).withRequestRetryBackoffLimit(0).build()).build()) {
            cluster.down(true);
            try {
                KubernetesClientException e = assertThrows(KubernetesClientException.class, () -> impatient.namespaces().withName("default").get());
                boolean refused = false;
                for (Throwable t = e; t != null; t = t.getCause()) refused |= t instanceof java.net.ConnectException;
                assertTrue(refused, "connection refused: " + e);
            } finally {
                cluster.down(false);
            }
            assertEquals("v", impatient.configMaps().inNamespace("default").withName("kept").get().getData().get("k"), "etcd kept it");
        }
    }
}
