package dev.windlass.engine.install;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.windlass.engine.TestFleet;
import dev.windlass.kubetest.Await;
import dev.windlass.kubetest.KubeApiServer;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code windlass run} as a process, the way the install manifests start it outside a Pod: {@code --management-kubeconfig}
 * and {@code --namespace} lead it to a Secret holding a member cluster's kubeconfig, and it applies there. Its output
 * never holds the kubeconfig's token.
 */
class RunWithSecretsIT {
    static final Path JAR = Path.of("target", "windlass.jar").toAbsolutePath();

    @TempDir Path dir;

    @Test void theEngineProcessReachesAClusterThroughASecret() throws Exception {
        assertTrue(Files.isRegularFile(JAR), "the engine's jar is built in the package phase: " + JAR);
        try (KubeApiServer cluster = KubeApiServer.start(); KubernetesClient admin = cluster.newClient(); TestFleet fleet = new TestFleet(dir)) {
            admin.namespaces().resource(new io.fabric8.kubernetes.api.model.NamespaceBuilder().withNewMetadata().withName("engine-ns")
                    .endMetadata().build()).create();
            admin.serviceAccounts().inNamespace("default").resource(new io.fabric8.kubernetes.api.model.ServiceAccountBuilder()
                    .withNewMetadata().withName("member").endMetadata().build()).create();
            String token = ServiceAccountIdentity.token(admin, "default", "member");
            admin.rbac().clusterRoleBindings().resource(new io.fabric8.kubernetes.api.model.rbac.ClusterRoleBindingBuilder().withNewMetadata()
                    .withName("member-admin").endMetadata().withNewRoleRef("rbac.authorization.k8s.io", "ClusterRole", "cluster-admin")
                    .addNewSubject().withKind("ServiceAccount").withName("member").withNamespace("default").endSubject().build()).create();
            admin.secrets().inNamespace("engine-ns").resource(new SecretBuilder().withNewMetadata().withName("cluster-eu-1").endMetadata()
                    .addToStringData("kubeconfig", ServiceAccountIdentity.kubeconfig(cluster.url(), token)).build()).create();
            fleet.push("a cluster through a Secret", c -> c
                    .write("clusters/eu-1.yaml", "apiVersion: windlass.dev/v1alpha1\nkind: Cluster\nmetadata: {name: eu-1}\nspec:\n"
                            + "  connection: {kubeconfigSecretRef: {name: cluster-eu-1}}\n")
                    .write("apps/hello/app.yaml", "apiVersion: windlass.dev/v1alpha1\nkind: Application\nmetadata: {name: hello}\n"
                            + "spec: {namespace: hello, placement: {clusterNames: [eu-1]}}\n")
                    .write("apps/hello/manifests/greeting.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: greeting, namespace: hello}\n"
                            + "data: {version: v1}\n"));

            Path log = dir.resolve("engine.log");
            Process engine = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-jar", JAR.toString(),
                    "run", "--repo", fleet.origin.toString(), "--interval", "2s", "--workdir", dir.resolve("mirror").toString(),
                    "--listen", "127.0.0.1:0", "--namespace", "engine-ns",
                    "--management-kubeconfig", cluster.kubeconfig(dir.resolve("management.kubeconfig")).toString())
                    .redirectErrorStream(true).redirectOutput(log.toFile()).start();
            try {
                ConfigMap applied = Await.until(Duration.ofSeconds(90), "the engine process to apply the greeting",
                        () -> engine.isAlive() ? admin.configMaps().inNamespace("hello").withName("greeting").get() : null,
                        cm -> cm != null || !engine.isAlive());
                assertTrue(applied != null, "the engine exited or applied nothing; its output:\n" + Files.readString(log));
                assertEquals("v1", applied.getData().get("version"));
            } finally {
                engine.destroy();
                engine.waitFor();
            }
            String output = Files.readString(log);
            assertTrue(output.contains("Secrets of namespace engine-ns (management cluster " + cluster.url()), output);
            for (String secret : List.of(token)) assertFalse(output.contains(secret), "the engine's output holds a token");
        }
    }
}
