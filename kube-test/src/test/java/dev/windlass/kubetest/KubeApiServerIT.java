package dev.windlass.kubetest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The launcher against the real binaries: a usable, authenticated, RBAC-enforcing API server that counts requests. */
class KubeApiServerIT {

    private static KubeApiServer server;
    private static KubernetesClient client;

    @BeforeAll static void start() {
        server = KubeApiServer.start();
        client = server.newClient();
    }

    @AfterAll static void stop() {
        client.close();
        server.close();
    }

    @Test void servesTheDefaultNamespaceAsAdmin() {
        assertNotNull(client.namespaces().withName("default").get());
        assertEquals("34", client.getKubernetesVersion().getMinor());
    }

    @Test void countsWritesFromTheServersOwnMetrics() {
        RequestCounts before = server.requestCounts();

        client.configMaps().inNamespace("default").resource(configMap("counted")).create();
        client.configMaps().inNamespace("default").withName("counted").get();

        RequestCounts between = Await.until(Duration.ofSeconds(5), "the GET to be counted",
                () -> server.requestCounts().since(before), c -> c.count("GET", "configmaps") == 1);
        assertEquals(1, between.count("POST", "configmaps"));
        assertEquals(1, between.writes("configmaps"));
    }

    @Test void writesAKubeconfigThatConnectsWithVerifiedTls(@TempDir Path dir) throws IOException {
        Path file = server.kubeconfig(dir.resolve("kubeconfig"));

        Config config = Config.fromKubeconfig(null, Files.readString(file), file.toString());
        try (KubernetesClient fromFile = new KubernetesClientBuilder().withConfig(config).build()) {
            assertEquals(false, config.isTrustCerts());
            assertNotNull(fromFile.namespaces().withName("default").get());
        }
    }

    /**
     * What the manifest check refuses before planning (a fraction where a whole number goes), the real API server
     * refuses too; the same object with a whole number is created.
     */
    @Test void refusesAFractionWhereTheApiTakesAWholeNumber() {
        var deployments = client.genericKubernetesResources("apps/v1", "Deployment").inNamespace("default");
        var e = assertThrows(KubernetesClientException.class, () -> deployments.resource(deployment("fraction", 2.5)).create());
        assertEquals(400, e.getCode());
        assertTrue(e.getMessage().contains("replicas"), e.getMessage());
        assertEquals(2, ((Number) ((Map<?, ?>) deployments.resource(deployment("whole", 2)).create().getAdditionalProperties().get("spec"))
                .get("replicas")).intValue());
    }

    private static GenericKubernetesResource deployment(String name, Number replicas) {
        Map<String, Object> labels = Map.of("app", name);
        Map<String, Object> container = Map.of("name", "c", "image", "nginx");
        GenericKubernetesResource d = new GenericKubernetesResourceBuilder().withApiVersion("apps/v1").withKind("Deployment")
                .withNewMetadata().withName(name).withNamespace("default").endMetadata().build();
        d.setAdditionalProperty("spec", Map.of("replicas", replicas, "selector", Map.of("matchLabels", labels),
                "template", Map.of("metadata", Map.of("labels", labels), "spec", Map.of("containers", List.of(container)))));
        return d;
    }

    @Test void enforcesRbacForOtherUsers() {
        Config asNobody = new ConfigBuilder(server.config()).withImpersonateUsername("nobody").build();
        try (KubernetesClient nobody = new KubernetesClientBuilder().withConfig(asNobody).build()) {
            var e = assertThrows(KubernetesClientException.class,
                    () -> nobody.configMaps().inNamespace("default").resource(configMap("denied")).create());
            assertEquals(403, e.getCode());
        }
    }

    @Test void closeStopsTheServer() throws InterruptedException {
        KubeApiServer second = KubeApiServer.start();
        String url = second.url();

        second.close();

        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
        assertThrows(IOException.class, () -> http.send(HttpRequest.newBuilder(URI.create(url + "/readyz")).build(),
                HttpResponse.BodyHandlers.ofString()));
    }

    private static ConfigMap configMap(String name) {
        return new ConfigMapBuilder().withNewMetadata().withName(name).endMetadata().addToData("k", "v").build();
    }
}
