package dev.windlass.engine.install;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.windlass.engine.lease.LeaseSettings;
import dev.windlass.engine.lease.Leadership;
import dev.windlass.engine.lease.ShardLeases;
import dev.windlass.kubetest.Await;
import dev.windlass.kubetest.KubeCluster;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodSecurityContext;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.api.model.SecurityContext;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.api.model.coordination.v1.LeaseBuilder;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBindingBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Duration;
import java.time.ZonedDateTime;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.function.Executable;

/**
 * The install manifests of {@code deploy/} on a real control plane, applied as the README's "Install in a cluster"
 * says. They apply; the Deployment's Pod is scheduled and runs (on a kwok node: the image need not exist) with the
 * security settings asked for; and the engine's ServiceAccount, with a token from the TokenRequest API, can do the
 * engine's work in its namespace and is refused (403, by the API server) everything else.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class InstallIT {
    static final String NS = "windlass-system";

    static KubeCluster cluster;
    static KubernetesClient admin;


    @BeforeAll static void start() {
        cluster = KubeCluster.start(2);
        admin = cluster.newClient();
    }

    @AfterAll static void stop() {
        if (admin != null) admin.close();
        if (cluster != null) cluster.close();
    }

    @Test @Order(1) void theManifestsApplyAndTheEnginesIdentityMayDoItsWorkAndNothingMore() throws Exception {
        List<HasMetadata> applied = InstallManifests.applyServerSide(admin, InstallManifests.build(InstallManifests.DEPLOY));
        assertEquals(List.of("Namespace", "ServiceAccount", "Role", "RoleBinding", "ConfigMap", "Service", "Deployment",
                "PodDisruptionBudget", "NetworkPolicy"), applied.stream().map(HasMetadata::getKind).toList());

        List<Pod> pods = awaitRunningPods();
        for (Pod p : pods) assertTrue(p.getSpec().getNodeName().startsWith("node-"), "scheduled on a kwok node: " + p.getSpec().getNodeName());
        Pod pod = pods.get(0);
        assertTrue(pod.getSpec().getContainers().get(0).getArgs().contains("--shards=3"), pod.getSpec().getContainers().get(0).getArgs().toString());
        assertEquals("/readyz", pod.getSpec().getContainers().get(0).getReadinessProbe().getHttpGet().getPath());
        assertEquals("windlass", pod.getSpec().getServiceAccountName());
        assertEquals("windlass:dev", pod.getSpec().getContainers().get(0).getImage());
        PodSecurityContext podSecurity = pod.getSpec().getSecurityContext();
        assertEquals(Boolean.TRUE, podSecurity.getRunAsNonRoot());
        assertEquals(65532L, podSecurity.getRunAsUser());
        assertEquals("RuntimeDefault", podSecurity.getSeccompProfile().getType());
        SecurityContext container = pod.getSpec().getContainers().get(0).getSecurityContext();
        assertEquals(Boolean.TRUE, container.getReadOnlyRootFilesystem());
        assertEquals(Boolean.FALSE, container.getAllowPrivilegeEscalation());
        assertEquals(List.of("ALL"), container.getCapabilities().getDrop());
        assertTrue(pod.getSpec().getVolumes().stream().anyMatch(v -> v.getName().equals("work") && v.getEmptyDir() != null));
        Await.until(Duration.ofSeconds(30), "the disruption budget to count the engine's Pods and let one go at a time",
                () -> admin.policy().v1().podDisruptionBudget().inNamespace(NS).withName("windlass").get(),
                b -> b.getStatus() != null && Integer.valueOf(3).equals(b.getStatus().getCurrentHealthy())
                        && Integer.valueOf(1).equals(b.getStatus().getDisruptionsAllowed()));

        // What the README's next step creates: a member cluster's kubeconfig, in a Secret of the engine's namespace.
        admin.secrets().inNamespace(NS).resource(secret(NS, "cluster-eu-1")).create();
        admin.secrets().inNamespace("kube-system").resource(secret("kube-system", "someone-elses")).create();
        admin.secrets().inNamespace("default").resource(secret("default", "someone-elses")).create();

        String token = ServiceAccountIdentity.token(admin, NS, "windlass");
        try (KubernetesClient engine = ServiceAccountIdentity.client(cluster.url(), token, NS)) {
            // Its work: read a cluster's kubeconfig Secret by name, and hold a Lease.
            assertEquals("cluster-eu-1", engine.secrets().inNamespace(NS).withName("cluster-eu-1").get().getMetadata().getName());
            leaseWork(engine);

            // Nothing more; each refusal is the API server's 403.
            forbidden(() -> engine.secrets().inNamespace("kube-system").withName("someone-elses").get());
            forbidden(() -> engine.secrets().inNamespace("default").withName("someone-elses").get());
            forbidden(() -> engine.secrets().inNamespace(NS).list());
            forbidden(() -> engine.secrets().inAnyNamespace().list());
            forbidden(() -> engine.secrets().inNamespace(NS).withName("cluster-eu-1").edit(s -> {
                s.getMetadata().setLabels(Map.of("changed", "by-the-engine"));
                return s;
            }));
            forbidden(() -> engine.secrets().inNamespace(NS).withName("cluster-eu-1").delete());
            forbidden(() -> engine.leases().inNamespace("default").resource(lease("default", "elsewhere")).create());
            forbidden(() -> engine.leases().inNamespace("default").list());
            forbidden(() -> engine.leases().inNamespace("default").withName("anything").delete());
            forbidden(() -> engine.nodes().withName("node-0").delete());
            forbidden(() -> engine.nodes().list());
            forbidden(() -> engine.namespaces().withName(NS).delete());
            forbidden(() -> engine.apps().deployments().inNamespace(NS).withName("windlass").scale(0));
            forbidden(() -> engine.apps().deployments().inNamespace("default").resource(deployment()).create());
            forbidden(() -> engine.configMaps().inNamespace(NS).resource(new ConfigMapBuilder().withNewMetadata()
                    .withName("windlass-inventory-web").endMetadata().build()).create());
            forbidden(() -> engine.rbac().clusterRoleBindings().resource(new ClusterRoleBindingBuilder().withNewMetadata()
                    .withName("windlass-escalates").endMetadata().withNewRoleRef("rbac.authorization.k8s.io", "ClusterRole", "cluster-admin")
                    .addNewSubject().withKind("ServiceAccount").withName("windlass").withNamespace(NS).endSubject().build()).create());
        }
        // The refused writes left everything as it was.
        assertNotNull(admin.nodes().withName("node-0").get());
        assertNotNull(admin.secrets().inNamespace(NS).withName("cluster-eu-1").get());
        assertTrue(admin.secrets().inNamespace(NS).withName("cluster-eu-1").get().getMetadata().getLabels().isEmpty());
        assertEquals(3, admin.apps().deployments().inNamespace(NS).withName("windlass").get().getSpec().getReplicas());
        assertEquals(null, admin.apps().deployments().inNamespace("default").withName("intruder").get());
        assertEquals(null, admin.rbac().clusterRoleBindings().withName("windlass-escalates").get());
    }

    /**
     * With the {@code manage-this-cluster} component, the engine may also observe and apply to the management cluster
     * itself: namespaces, nodes, its inventories and the listed kinds; other namespaces' Secrets stay out of reach.
     */
    @Test @Order(2) void theManageThisClusterComponentWidensItToTheKindsItApplies() throws Exception {
        // An overlay next to the base, as a user keeps one: kustomize takes bases by relative path only.
        Path overlay = Files.createDirectories(Path.of("target", "install-overlay").toAbsolutePath());
        Files.writeString(overlay.resolve("kustomization.yaml"), """
                apiVersion: kustomize.config.k8s.io/v1beta1
                kind: Kustomization
                resources: [%s]
                components: [%s]
                """.formatted(overlay.relativize(InstallManifests.DEPLOY), overlay.relativize(InstallManifests.DEPLOY.resolve("manage-this-cluster"))));
        InstallManifests.applyServerSide(admin, InstallManifests.build(overlay));

        String token = ServiceAccountIdentity.token(admin, NS, "windlass");
        try (KubernetesClient engine = ServiceAccountIdentity.client(cluster.url(), token, NS)) {
            assertEquals(2, engine.nodes().list().getItems().size());
            engine.namespaces().resource(new io.fabric8.kubernetes.api.model.NamespaceBuilder().withNewMetadata().withName("web")
                    .endMetadata().build()).create();
            engine.configMaps().inNamespace(NS).resource(new ConfigMapBuilder().withNewMetadata()
                    .withName("windlass-inventory-web").endMetadata().build()).create();
            engine.apps().deployments().inNamespace("web").resource(deployment()).create();

            forbidden(() -> engine.secrets().inNamespace("kube-system").withName("someone-elses").get());
            forbidden(() -> engine.nodes().withName("node-0").delete());
            forbidden(() -> engine.namespaces().withName("kube-system").delete());
        }
        assertNotNull(admin.apps().deployments().inNamespace("web").withName("intruder").get());
        assertNotNull(admin.nodes().withName("node-0").get());
    }

    /**
     * get, create, update of a Lease by hand, then the engine's own leader election ({@code windlass run --leader-elect})
     * as this identity: one replica takes the Lease, the other stands by.
     */
    private static void leaseWork(KubernetesClient engine) throws InterruptedException {
        Lease created = engine.leases().inNamespace(NS).resource(lease(NS, "windlass-shard-0")).create();
        assertEquals("windlass-engine-0", created.getSpec().getHolderIdentity());
        Lease current = engine.leases().inNamespace(NS).withName("windlass-shard-0").get();
        current.getSpec().setHolderIdentity("windlass-engine-1");
        current.getSpec().setRenewTime(ZonedDateTime.now());
        engine.leases().inNamespace(NS).resource(current).update();
        assertEquals("windlass-engine-1", admin.leases().inNamespace(NS).withName("windlass-shard-0").get().getSpec().getHolderIdentity());

        ExecutorService renewals = Executors.newFixedThreadPool(2);
        try (Leadership a = new Leadership(engine, LeaseSettings.defaults(NS, "windlass", "replica-a"), renewals);
             Leadership b = new Leadership(engine, LeaseSettings.defaults(NS, "windlass", "replica-b"), renewals)) {
            a.start(() -> {});
            Await.until(Duration.ofSeconds(30), "replica-a to hold the Lease as the engine's ServiceAccount",
                    () -> a.leading() && a.refusal().isEmpty(), ok -> ok);
            b.start(() -> {});
            Await.until(Duration.ofSeconds(30), "replica-b to see replica-a hold the Lease", b::holder, "replica-a"::equals);
            assertFalse(b.leading(), "replica-b stands by");
            assertTrue(b.refusal().isPresent());
            assertEquals("replica-a", admin.leases().inNamespace(NS).withName("windlass").get().getSpec().getHolderIdentity());
        } finally {
            renewals.shutdownNow();
        }
        // windlass run --shards: one Lease per shard, under the same rules, renewed (fabric8 patches the Lease) for two
        // lease durations without losing it; and a presence Lease, listed, and deleted as the replica stops.
        LeaseSettings quick = new LeaseSettings(NS, "sharded", "replica-c", Duration.ofSeconds(4), Duration.ofSeconds(3),
                Duration.ofMillis(500), Duration.ofSeconds(1));
        try (ShardLeases shards = ShardLeases.stand(engine, quick, 2, new java.util.TreeSet<>(java.util.Set.of(0, 1)), shard -> {})) {
            Await.until(Duration.ofSeconds(30), "replica-c to hold both shards' Leases as the engine's ServiceAccount", shards::writable,
                    java.util.Set.of(0, 1)::equals);
            Lease held = admin.leases().inNamespace(NS).withName("sharded-shard-1").get();
            assertEquals("replica-c", held.getSpec().getHolderIdentity());
            // Renewed until its renew time lies two lease durations past the first one read, holding it all along: a holder
            // that could not renew would have given it up a lease duration after that first renewal.
            java.time.ZonedDateTime past = held.getSpec().getRenewTime().plus(quick.leaseDuration().multipliedBy(2));
            Lease later = Await.until(Duration.ofSeconds(30), "replica-c to renew shard 1's Lease as the engine's ServiceAccount", () -> {
                Lease now = admin.leases().inNamespace(NS).withName("sharded-shard-1").get();
                assertEquals("replica-c", now.getSpec().getHolderIdentity(), "renewed, not lost");
                return now;
            }, l -> l.getSpec().getRenewTime().isAfter(past));
            assertTrue(later.getSpec().getRenewTime().isAfter(held.getSpec().getRenewTime()), "renewed as the engine's ServiceAccount");
            assertEquals(java.util.Set.of(0, 1), shards.writable());
            assertEquals(1, admin.leases().inNamespace(NS).withLabel("windlass.dev/replica-of", "sharded").list().getItems().size(),
                    "its presence");
        }
        assertEquals(0, admin.leases().inNamespace(NS).withLabel("windlass.dev/replica-of", "sharded").list().getItems().size(),
                "its presence deleted as it stopped");
    }

    private static List<Pod> awaitRunningPods() {
        return Await.until(Duration.ofSeconds(60), "the engine's Deployment to run its three Pods on kwok nodes", () -> {
            Deployment d = admin.apps().deployments().inNamespace(NS).withName("windlass").get();
            List<Pod> pods = admin.pods().inNamespace(NS).withLabel("app.kubernetes.io/name", "windlass").list().getItems();
            boolean available = d.getStatus() != null && Integer.valueOf(3).equals(d.getStatus().getAvailableReplicas());
            return available && pods.size() == 3 && pods.stream().allMatch(p -> "Running".equals(p.getStatus().getPhase())) ? pods : null;
        }, p -> p != null);
    }

    private static void forbidden(Executable request) {
        KubernetesClientException e = assertThrows(KubernetesClientException.class, request);
        assertEquals(403, e.getCode(), e.getMessage());
    }

    private static io.fabric8.kubernetes.api.model.Secret secret(String namespace, String name) {
        return new SecretBuilder().withNewMetadata().withName(name).withNamespace(namespace).endMetadata()
                .addToStringData("kubeconfig", "placeholder: not read by this test").build();
    }

    private static Lease lease(String namespace, String name) {
        return new LeaseBuilder().withNewMetadata().withName(name).withNamespace(namespace).endMetadata()
                .withNewSpec().withHolderIdentity("windlass-engine-0").withLeaseDurationSeconds(15).endSpec().build();
    }

    private static Deployment deployment() {
        return new DeploymentBuilder().withNewMetadata().withName("intruder").endMetadata().withNewSpec()
                .withNewSelector().addToMatchLabels("app", "intruder").endSelector()
                .withNewTemplate().withNewMetadata().addToLabels("app", "intruder").endMetadata()
                .withNewSpec().addNewContainer().withName("c").withImage("busybox").endContainer().endSpec().endTemplate()
                .endSpec().build();
    }
}
