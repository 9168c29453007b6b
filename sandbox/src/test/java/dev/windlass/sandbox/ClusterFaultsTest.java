package dev.windlass.sandbox;

import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A cluster that is down, hung, slow or not ready fails its own clients' requests and leaves the other clusters answering. */
class ClusterFaultsTest {

    private Sandbox sandbox;
    private SandboxCluster east;
    private SandboxCluster west;
    private KubernetesClient eastClient;
    private KubernetesClient westClient;

    @BeforeEach void start() {
        sandbox = new Sandbox(ClusterSettings.defaults().withRequestTimeout(Duration.ofSeconds(3)),
                new dev.windlass.sandbox.sim.Simulator());
        east = sandbox.add("east", 2, 1);
        west = sandbox.add("west", 1, 1);
        eastClient = east.newClient();
        westClient = west.newClient();
    }

    @AfterEach void stop() {
        eastClient.close();
        westClient.close();
        sandbox.close();
    }

    @Test void downFailsRequestsAtOnceWhileTheOtherClusterAnswersAndUpRecovers() {
        assertEquals(2, eastClient.nodes().list().getItems().size()); // leaves a pooled connection to be cut

        east.down(true);
        long t0 = System.nanoTime();
        assertThrows(KubernetesClientException.class, () -> eastClient.nodes().list());
        long failedAfterMs = (System.nanoTime() - t0) / 1_000_000;
        assertTrue(failedAfterMs < 3_000, "a reset connection fails before the request timeout: " + failedAfterMs);
        assertThrows(KubernetesClientException.class, () -> eastClient.nodes().list(), "new connections fail too");
        assertEquals(1, westClient.nodes().list().getItems().size());

        east.down(false);
        assertEquals(2, eastClient.nodes().list().getItems().size());
    }

    @Test void healthEndpointsAnswerOkWhenUpAndNothingWhenDown() throws Exception {
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
        for (String path : new String[] {"readyz", "healthz"}) {
            HttpResponse<String> ok = http.send(get(east, path), HttpResponse.BodyHandlers.ofString());
            assertEquals(200, ok.statusCode());
            assertEquals("ok", ok.body());
        }
        east.down(true);
        assertThrows(IOException.class, () -> http.send(get(east, "readyz"), HttpResponse.BodyHandlers.ofString()));
        assertEquals(200, http.send(get(west, "readyz"), HttpResponse.BodyHandlers.ofString()).statusCode());
    }

    @Test void apiNotReadyFailsReadyzOnlyAndIsCleared() throws Exception {
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
        assertFalse(east.isApiNotReady());

        east.apiNotReady(true);
        assertTrue(east.isApiNotReady());
        HttpResponse<String> failing = http.send(get(east, "readyz"), HttpResponse.BodyHandlers.ofString());
        assertEquals(500, failing.statusCode());
        assertEquals("[-]etcd failed: reason withheld\nreadyz check failed\n", failing.body());
        assertTrue(failing.headers().firstValue("Content-Type").orElse("").startsWith("text/plain"));
        for (String path : new String[] {"healthz", "livez"}) {
            assertEquals(200, http.send(get(east, path), HttpResponse.BodyHandlers.ofString()).statusCode(), path);
        }
        assertEquals(2, eastClient.nodes().list().getItems().size(), "the API is still served");
        assertEquals(200, http.send(get(west, "readyz"), HttpResponse.BodyHandlers.ofString()).statusCode(),
                "the fault is per cluster");
        assertTrue(east.toString().contains("not-ready"), east.toString());

        east.apiNotReady(false);
        HttpResponse<String> ok = http.send(get(east, "readyz"), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, ok.statusCode());
        assertEquals("ok", ok.body());
        assertEquals(2, east.requests().count("GET", "/readyz"), "each probe is counted");
    }

    @Test void aHungClusterAcceptsConnectionsAndAnswersNothingUntilThawed() throws Exception {
        try (KubernetesClient impatient = new KubernetesClientBuilder()
                .withConfig(new ConfigBuilder(east.config()).withRequestTimeout(500).build()).build()) {
            assertEquals(2, impatient.nodes().list().getItems().size()); // leaves a pooled connection that hangs too

            east.hang(true);
            assertTrue(east.isHung());
            assertThrows(KubernetesClientException.class, () -> impatient.nodes().list(), "no answer on an open connection");
            try (java.net.Socket raw = new java.net.Socket()) {
                raw.connect(new java.net.InetSocketAddress("127.0.0.1", URI.create(east.masterUrl()).getPort()), 1_000);
                raw.setSoTimeout(300);
                raw.getOutputStream().write("GET /readyz HTTP/1.1\r\nHost: east\r\n\r\n".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
                assertThrows(java.net.SocketTimeoutException.class, () -> raw.getInputStream().read(),
                        "a new connection is accepted and never answered");
                assertEquals(1, westClient.nodes().list().getItems().size(), "the fault is per cluster");
                assertTrue(east.toString().contains("hung"), east.toString());

                east.hang(false);
                raw.setSoTimeout(5_000);
                assertEquals('H', raw.getInputStream().read(), "what was sent while hung is answered once thawed");
            }
            assertEquals(2, impatient.nodes().list().getItems().size());
        }
    }

    @Test void latencyBeyondTheRequestTimeoutFailsTheRequest() {
        east.latency(Duration.ofMillis(1_500));
        try (KubernetesClient impatient = new KubernetesClientBuilder()
                .withConfig(new ConfigBuilder(east.config()).withRequestTimeout(300).build()).build()) {
            assertThrows(KubernetesClientException.class, () -> impatient.nodes().list());
            assertEquals(1, westClient.nodes().list().getItems().size(), "latency is per cluster");

            east.latency(Duration.ZERO);
            assertEquals(2, impatient.nodes().list().getItems().size());
        }
    }

    @Test void latencyWithinTheTimeoutSlowsTheRequestDown() {
        eastClient.nodes().list(); // warm up, so the measurement is the delay and not class loading
        east.latency(Duration.ofMillis(400));
        long t0 = System.nanoTime();
        assertEquals(2, eastClient.nodes().list().getItems().size());
        assertTrue((System.nanoTime() - t0) / 1_000_000 >= 400);
        assertEquals(Duration.ofMillis(400), east.latency());
    }

    @Test void missingObjectsAreDelayedToo() {
        east.latency(Duration.ofMillis(300));
        long t0 = System.nanoTime();
        assertEquals(null, eastClient.configMaps().withName("absent").get());
        assertTrue((System.nanoTime() - t0) / 1_000_000 >= 300);
    }

    private static HttpRequest get(SandboxCluster cluster, String path) {
        return HttpRequest.newBuilder(URI.create(cluster.masterUrl() + path)).timeout(Duration.ofSeconds(2)).build();
    }
}
