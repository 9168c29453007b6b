package dev.windlass.engine.install;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.windlass.applier.cluster.ManagementCluster;
import dev.windlass.engine.TestFleet;
import dev.windlass.kubetest.KubeApiServer;
import dev.windlass.policy.state.ClusterStatus;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.api.model.ServiceAccountBuilder;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBindingBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.nio.file.Path;
import java.util.List;
import org.eclipse.jgit.revwalk.RevCommit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Credentials the Kubernetes way, on real API servers: a management cluster with {@code deploy/} installed, whose
 * Secret in {@code windlass-system} holds a member cluster's kubeconfig, read by the engine as its own ServiceAccount
 * (the installed RBAC, nothing more). A wrong token is reported and writes nothing; the Secret rotated to a working
 * kubeconfig is used on the next pass; rotated again after the old token was revoked, the next pass writes with the
 * new one. One engine throughout: no restart. No token reaches the status branch.
 */
class KubeconfigSecretIT {
    static final String NS = "windlass-system";

    static KubeApiServer management;
    static KubeApiServer member;
    static KubernetesClient managementAdmin;
    static KubernetesClient memberAdmin;

    @TempDir Path dir;

    @BeforeAll static void start() throws Exception {
        management = KubeApiServer.start();
        member = KubeApiServer.start();
        managementAdmin = management.newClient();
        memberAdmin = member.newClient();
        InstallManifests.applyServerSide(managementAdmin, InstallManifests.build(InstallManifests.DEPLOY));
    }

    @AfterAll static void stop() {
        for (AutoCloseable c : new AutoCloseable[] {managementAdmin, memberAdmin, management, member}) {
            try {
                if (c != null) c.close();
            } catch (Exception e) {
                // closing the rest matters more
            }
        }
    }

    @Test void aRotatedKubeconfigSecretIsUsedOnTheNextPass() throws Exception {
        String tokenA = memberIdentity("windlass-a");
        String tokenB = memberIdentity("windlass-b");
        String wrong = "not-a-token-of-this-cluster-0123456789";
        putKubeconfig(ServiceAccountIdentity.kubeconfig(member.url(), wrong));

        String engineToken = ServiceAccountIdentity.token(managementAdmin, NS, "windlass");
        ManagementCluster asInstalled = ManagementCluster.of(ServiceAccountIdentity.config(management.url(), engineToken, NS), NS);
        try (TestFleet fleet = new TestFleet(dir, false, asInstalled)) {
            fleet.push("a member cluster reached through a Secret", c -> c
                    .write("clusters/eu-1.yaml", cluster("eu-1", "{kubeconfigSecretRef: {name: cluster-eu-1, key: kubeconfig}}"))
                    .write("apps/hello/app.yaml", app("hello", "hello", "eu-1"))
                    .write("apps/hello/manifests/greeting.yaml", greeting("hello", "v1")));

            fleet.pass();
            ClusterStatus refused = fleet.engine.reconciler().state().clusters().get("eu-1");
            assertFalse(refused.reachability() == dev.windlass.policy.state.Reachability.Reachable, refused.toString());
            assertTrue(refused.message().contains("401") || refused.message().toLowerCase().contains("unauthorized"), refused.message());
            assertNull(memberAdmin.namespaces().withName("hello").get(), "nothing written with a wrong token");

            putKubeconfig(ServiceAccountIdentity.kubeconfig(member.url(), tokenA));
            fleet.pass();
            assertEquals("v1", greetingOnMember());

            // Revoke A (its ServiceAccount is gone, so the API server refuses its token), rotate to B, change Git.
            memberAdmin.serviceAccounts().inNamespace("kube-system").withName("windlass-a").delete();
            try (KubernetesClient revoked = ServiceAccountIdentity.client(member.url(), tokenA, "default")) {
                dev.windlass.kubetest.Await.until(java.time.Duration.ofSeconds(20), "token A to be refused", () -> {
                    try {
                        revoked.namespaces().list();
                        return 200;
                    } catch (KubernetesClientException e) {
                        return e.getCode();
                    }
                }, code -> code == 401);
            }
            putKubeconfig(ServiceAccountIdentity.kubeconfig(member.url(), tokenB));
            fleet.push("greeting v2", c -> c.write("apps/hello/manifests/greeting.yaml", greeting("hello", "v2")));
            fleet.pass();
            assertEquals("v2", greetingOnMember(), "written with token B: token A is refused by the server");
            assertEquals(dev.windlass.policy.state.Reachability.Reachable, fleet.engine.reconciler().state().clusters().get("eu-1").reachability());

            for (String token : List.of(tokenA, tokenB, wrong, engineToken)) assertNoTrace(fleet, token);
        }
        // The engine's identity only read the Secret: it is as the test wrote it.
        assertTrue(managementAdmin.secrets().inNamespace(NS).withName("cluster-eu-1").get().getMetadata().getLabels().isEmpty());
    }

    /**
     * A kubeconfig file on the engine's host rewritten in place (another user's token, as a mounted Secret is updated) is
     * used on the next pass: the server's audit log names the new user as the writer. The client library alone kept the
     * old token for up to a minute, and certificates until a restart.
     */
    @Test void aKubeconfigFileRewrittenInPlaceIsUsedOnTheNextPass() throws Exception {
        Path kubeconfig = member.kubeconfig(dir.resolve("eu-2.kubeconfig"), "user-1");
        try (TestFleet fleet = new TestFleet(dir)) {
            fleet.push("a member cluster reached through a kubeconfig file", c -> c
                    .write("clusters/eu-2.yaml", cluster("eu-2", "{kubeconfig: {path: \"" + kubeconfig + "\"}}"))
                    .write("apps/from-file/app.yaml", app("from-file", "from-file", "eu-2"))
                    .write("apps/from-file/manifests/greeting.yaml", greeting("from-file", "v1")));
            fleet.pass();
            assertEquals(List.of("user-1"), greetingWriters("v1"));

            member.kubeconfig(kubeconfig, "user-2");
            fleet.push("greeting v2", c -> c.write("apps/from-file/manifests/greeting.yaml", greeting("from-file", "v2")));
            fleet.pass();

            assertEquals(List.of("user-2"), greetingWriters("v2"), "written with the file's new token, on the very next pass");
        }
    }

    /** Who wrote ConfigMap from-file/greeting at {@code version}, by the server's audit log. */
    private static List<String> greetingWriters(String version) {
        return member.auditedWrites().stream()
                .filter(w -> w.succeeded() && "configmaps".equals(w.resource()) && "from-file".equals(w.namespace()) && "greeting".equals(w.name())
                        && w.body() != null && version.equals(w.body().path("data").path("version").asText()))
                .map(dev.windlass.kubetest.AuditedWrite::user).distinct().toList();
    }

    /** A Cluster whose Secret is missing, or holds a kubeconfig that points at host files, is reported, naming no content. */
    @Test void aMissingSecretOrAKubeconfigReachingOutsideItIsReportedByName() throws Exception {
        String engineToken = ServiceAccountIdentity.token(managementAdmin, NS, "windlass");
        ManagementCluster asInstalled = ManagementCluster.of(ServiceAccountIdentity.config(management.url(), engineToken, NS), NS);
        managementAdmin.secrets().inNamespace(NS).resource(new SecretBuilder().withNewMetadata().withName("reaches-out").endMetadata()
                .addToStringData("kubeconfig", ServiceAccountIdentity.kubeconfig(member.url(), "t0ken-in-a-file-kubeconfig")
                        .replace("user: {token: \"t0ken-in-a-file-kubeconfig\"}", "user: {tokenFile: /etc/shadow}"))
                .build()).create();
        try (TestFleet fleet = new TestFleet(dir, false, asInstalled)) {
            fleet.push("two broken clusters", c -> c
                    .write("clusters/gone.yaml", cluster("gone", "{kubeconfigSecretRef: {name: no-such-secret}}"))
                    .write("clusters/out.yaml", cluster("out", "{kubeconfigSecretRef: {name: reaches-out}}")));
            fleet.pass();
            assertEquals("Secret windlass-system/no-such-secret does not exist",
                    fleet.engine.reconciler().state().clusters().get("gone").message());
            String out = fleet.engine.reconciler().state().clusters().get("out").message();
            assertTrue(out.startsWith("the kubeconfig in Secret windlass-system/reaches-out key kubeconfig refers to files or commands "
                    + "(users[0].user.tokenFile)"), out);
            assertNoTrace(fleet, "/etc/shadow");
        }
    }

    /** {@code inCluster: true} is the management cluster, reached as the engine's own identity there. */
    @Test void inClusterIsTheClusterTheEngineRunsIn() throws Exception {
        try (TestFleet fleet = new TestFleet(dir, false, ManagementCluster.of(member.config(), NS))) {
            fleet.push("the engine's own cluster", c -> c
                    .write("clusters/home.yaml", cluster("home", "{inCluster: true}"))
                    .write("apps/hello/app.yaml", app("hello-home", "hello-home", "home"))
                    .write("apps/hello/manifests/greeting.yaml", greeting("hello-home", "home")));
            fleet.pass();
            assertEquals("home", memberAdmin.configMaps().inNamespace("hello-home").withName("greeting").get().getData().get("version"));
        }
    }

    /**
     * The engine in a Pod reads Secrets with the client library's in-cluster configuration: the ServiceAccount token file
     * and the service host and port, here given as the system properties the library reads like its environment.
     */
    @Test void inAPodTheEngineReadsSecretsAsItsServiceAccount() throws Exception {
        assertEquals(null, ManagementCluster.inCluster(NS).config(), "outside a Pod there is no in-cluster configuration");
        Path token = java.nio.file.Files.writeString(dir.resolve("token"), ServiceAccountIdentity.token(managementAdmin, NS, "windlass"));
        java.net.URI url = java.net.URI.create(management.url());
        java.util.Map<String, String> pod = java.util.Map.of("KUBERNETES_SERVICE_HOST", url.getHost(),
                "KUBERNETES_SERVICE_PORT", String.valueOf(url.getPort()), "kubernetes.auth.serviceAccount.token", token.toString(),
                "kubernetes.trust.certificates", "true", "kubernetes.auth.tryKubeConfig", "false");
        pod.forEach(System::setProperty);
        ManagementCluster inPod;
        try {
            inPod = ManagementCluster.inCluster(NS);
        } finally {
            pod.keySet().forEach(System::clearProperty);
        }
        putKubeconfig(ServiceAccountIdentity.kubeconfig(member.url(), memberIdentity("windlass-pod")));
        try (TestFleet fleet = new TestFleet(dir, false, inPod)) {
            fleet.push("a member cluster reached through a Secret", c -> c
                    .write("clusters/eu-1.yaml", cluster("eu-1", "{kubeconfigSecretRef: {name: cluster-eu-1}}")));
            fleet.pass();
            assertEquals(dev.windlass.policy.state.Reachability.Reachable, fleet.engine.reconciler().state().clusters().get("eu-1").reachability(),
                    fleet.engine.reconciler().state().clusters().get("eu-1").message());
        }
    }

    private static String cluster(String name, String connection) {
        return "apiVersion: windlass.dev/v1alpha1\nkind: Cluster\nmetadata: {name: " + name + "}\nspec:\n  connection: " + connection + "\n";
    }

    private static String app(String name, String namespace, String cluster) {
        return "apiVersion: windlass.dev/v1alpha1\nkind: Application\nmetadata: {name: " + name + "}\nspec:\n  namespace: " + namespace
                + "\n  placement: {clusterNames: [" + cluster + "]}\n";
    }

    private static String greeting(String namespace, String version) {
        return "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: greeting, namespace: " + namespace + "}\ndata: {version: \"" + version + "\"}\n";
    }

    private static String greetingOnMember() {
        ConfigMap cm = memberAdmin.configMaps().inNamespace("hello").withName("greeting").get();
        return cm == null ? null : cm.getData().get("version");
    }

    /** A ServiceAccount in the member cluster allowed everything there; its token, from the TokenRequest API. */
    private static String memberIdentity(String name) {
        memberAdmin.serviceAccounts().inNamespace("kube-system").resource(new ServiceAccountBuilder().withNewMetadata().withName(name)
                .endMetadata().build()).create();
        memberAdmin.rbac().clusterRoleBindings().resource(new ClusterRoleBindingBuilder().withNewMetadata().withName(name).endMetadata()
                .withNewRoleRef("rbac.authorization.k8s.io", "ClusterRole", "cluster-admin")
                .addNewSubject().withKind("ServiceAccount").withName(name).withNamespace("kube-system").endSubject().build()).create();
        return ServiceAccountIdentity.token(memberAdmin, "kube-system", name);
    }

    /** Creates or replaces the member's kubeconfig Secret, as an operator does with kubectl. */
    private static void putKubeconfig(String kubeconfig) {
        managementAdmin.secrets().inNamespace(NS).resource(new SecretBuilder().withNewMetadata().withName("cluster-eu-1").endMetadata()
                .addToStringData("kubeconfig", kubeconfig).build()).forceConflicts().serverSideApply();
    }

    /** Neither a status file nor a status commit message holds {@code secret}. */
    private static void assertNoTrace(TestFleet fleet, String secret) throws Exception {
        for (RevCommit c : fleet.statusLog()) assertFalse(c.getFullMessage().contains(secret), "a status commit quotes a secret");
        for (String path : List.of("status/fleet.yaml", "status/clusters/eu-1.yaml", "status/clusters/gone.yaml", "status/clusters/out.yaml",
                "status/apps/hello.yaml", "plans/main.md")) {
            String text = fleet.statusFile(path);
            assertTrue(text == null || !text.contains(secret), path + " quotes a secret");
        }
    }
}
