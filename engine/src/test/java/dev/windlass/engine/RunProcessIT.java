package dev.windlass.engine;

import static dev.windlass.engine.DaemonE2E.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code windlass run} as an operator runs it: the production jar in its own JVM, on a repo whose only cluster is a
 * real control plane reached by kubeconfig. It loads none of the sandbox's classes, logs JSON lines whose failing
 * write carries the pass, app and cluster and the client's stack trace, answers its probes, and on SIGTERM stops in
 * order within the grace.
 */
class RunProcessIT {
    static final Path JAR = Path.of("target", "windlass.jar");

    @TempDir Path dir;
    final HttpClient http = HttpClient.newHttpClient();
    final ObjectMapper json = new ObjectMapper();

    @Test
    void productionJarOnKubeconfigClustersLogsJsonStartsNoSandboxAndStopsOnSigterm() throws Exception {
        assertTrue(Files.exists(JAR), "run by failsafe after the jar is packaged: " + JAR.toAbsolutePath());
        try (TestFleet fleet = new TestFleet(dir, true)) {
            fleet.push("one real cluster, one refused Service", c -> c.write("clusters/edge.yaml", fleet.clusterYaml("edge", "", 1, 0, ""))
                    .write("apps/reports/app.yaml", "apiVersion: windlass.dev/v1alpha1\nkind: Application\nmetadata: {name: reports}\n"
                            + "spec:\n  namespace: reports\n  placement: {clusterSelector: {}}\n")
                    .write("apps/reports/manifests/service.yaml", service()));
            String source = fleet.head("refs/heads/main");
            int port = freePort();
            Path out = dir.resolve("classes.txt");
            Path err = dir.resolve("log.jsonl");
            String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
            Process engine = new ProcessBuilder(java, "-verbose:class", "-jar", JAR.toString(), "run", "--repo", fleet.origin.toString(),
                    "--workdir", dir.resolve("engine-mirror").toString(), "--interval", "1h", "--listen", "127.0.0.1:" + port,
                    "--kubeconfig-dir", dir.toString(), "--log-format", "json", "--shutdown-grace", "20s")
                    .redirectOutput(out.toFile()).redirectError(err.toFile()).start();
            try {
                String base = "http://127.0.0.1:" + port;
                await(() -> logLines(err).stream().anyMatch(l -> l.path("formattedMessage").asText().startsWith("pass " + source.substring(0, 7))),
                        "the first pass's summary line");

                JsonNode refused = logLines(err).stream()
                        .filter(l -> l.path("level").asText().equals("WARN") && l.path("loggerName").asText().endsWith("Attempt"))
                        .findFirst().orElseThrow(() -> new AssertionError("no warning of the refused write in\n" + read(err)));
                assertEquals(source.substring(0, 7), refused.path("mdc").path("pass").asText(), refused.toString());
                assertEquals("reports", refused.path("mdc").path("app").asText(), refused.toString());
                assertEquals("edge", refused.path("mdc").path("cluster").asText(), refused.toString());
                assertTrue(refused.path("formattedMessage").asText().contains("must be between 1 and 65535"), refused.toString());
                JsonNode thrown = refused.path("throwable");
                assertTrue(thrown.path("className").asText().endsWith("KubernetesClientException"), thrown.toString());
                assertTrue(thrown.path("stepArray").size() > 5, "the stack trace's frames: " + thrown);
                assertFalse(read(err).contains("report-http"), "no file contents in the log");

                HttpResponse<String> ready = get(base + "/readyz");
                assertEquals(200, ready.statusCode(), "a refused object is the repo's trouble, not the engine's: " + ready.body());
                assertEquals(200, get(base + "/healthz").statusCode());
                HttpResponse<String> page = get(base + "/apps/reports");
                assertEquals(200, page.statusCode(), "the production jar serves the dashboard on the same listener: " + page.body());
                assertTrue(page.body().contains("Application <span class=\"name\">reports</span>"), page.body());
                assertTrue(get(base + "/static/live.js").body().contains("/api/version"), "its script is in the jar");

                engine.destroy();  // SIGTERM
                assertTrue(engine.waitFor(30, TimeUnit.SECONDS), "exits within the grace (20 s) and then some");
                assertTrue(logLines(err).stream().anyMatch(l -> l.path("formattedMessage").asText().equals("stopped: no pass left running")),
                        read(err));
                List<String> sandboxClasses = Files.readAllLines(out).stream().filter(l -> l.contains(" dev.windlass.sandbox.")).toList();
                assertEquals(List.of(), sandboxClasses, "no sandbox class loaded for a repo without sandbox clusters");
                List<String> xmlConfiguration = Files.readAllLines(out).stream()
                        .filter(l -> l.contains(" ch.qos.logback.classic.joran.JoranConfigurator ") || l.contains(" com.sun.org.apache.xerces.")).toList();
                assertEquals(List.of(), xmlConfiguration, "logging is set up in code: no XML configurator or parser loaded");
                assertTrue(Files.readAllLines(out).stream().anyMatch(l -> l.contains(" dev.windlass.engine.reconcile.Reconciler ")),
                        "the class-loading log is there to be read");
            } finally {
                engine.destroyForcibly();
            }
        }
    }

    /** A port the API server refuses and Windlass's parser does not check. */
    static String service() {
        return "apiVersion: v1\nkind: Service\nmetadata: {name: reports}\nspec:\n  selector: {app: reports}\n"
                + "  ports: [{name: report-http, port: 70000}]\n";
    }

    private List<JsonNode> logLines(Path file) throws Exception {
        return read(file).lines().filter(l -> l.startsWith("{")).map(l -> {
            try {
                return json.readTree(l);
            } catch (Exception e) {
                throw new AssertionError("not a JSON line: " + l, e);
            }
        }).toList();
    }

    private static String read(Path file) {
        try {
            return Files.exists(file) ? Files.readString(file) : "";
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private HttpResponse<String> get(String url) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(url)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private static int freePort() throws Exception {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }
}
