package dev.windlass.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.windlass.engine.http.WebhookSignature;
import dev.windlass.engine.schedule.Daemon;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The daemon as a user runs it: a pass at start, /healthz, and a signed push webhook that makes the
 * engine reconcile a new commit long before the next poll.
 */
class DaemonE2E {
    static final Path EXAMPLES = Path.of("..", "examples-repo");
    static final String SECRET = "s3cret";

    @TempDir Path dir;
    final HttpClient http = HttpClient.newHttpClient();

    @Test
    void webhookTriggersAPassAndHealthzAnswers() throws Exception {
        try (TestFleet fleet = new TestFleet(dir)) {
            fleet.push("add the fleet", TestFleet.folder(EXAMPLES, ""));
            try (Daemon daemon = new Daemon(fleet.engine.reconciler(), "main", Duration.ofHours(1),
                    new InetSocketAddress("127.0.0.1", 0), SECRET, fleet.clock).start()) {
                String base = "http://127.0.0.1:" + daemon.port();
                await(() -> fleet.statusLog().size() > 0, "the first pass runs at start");

                HttpResponse<String> health = http.send(HttpRequest.newBuilder(URI.create(base + "/healthz")).build(), HttpResponse.BodyHandlers.ofString());
                assertEquals(200, health.statusCode());
                assertTrue(health.body().startsWith("ok"), health.body());
                await(() -> get(base + "/metrics").body().contains("windlass_reconcile_passes_total{result=\"ok\"} 1.0"),
                        "the first pass is counted on /metrics");
                HttpResponse<String> metrics = get(base + "/metrics");
                assertEquals(200, metrics.statusCode());
                assertTrue(metrics.body().contains("windlass_actions_total{operation=\"Create\",outcome=\"Created\"}"), metrics.body());

                int before = fleet.statusLog().size();
                fleet.push("web 1.5.0", c -> c.write("apps/web/manifests/deployment.yaml",
                        ReconcileLoopE2E.read(EXAMPLES.resolve("apps/web/manifests/deployment.yaml")).replace("web:1.4.2", "web:1.5.0")));
                byte[] payload = "{\"ref\":\"refs/heads/main\",\"after\":\"abc\"}".getBytes(StandardCharsets.UTF_8);

                assertEquals(401, post(base, payload, "X-Hub-Signature-256", "sha256=" + WebhookSignature.sign("wrong", payload)).statusCode());
                HttpResponse<String> other = post(base, "{\"ref\":\"refs/heads/windlass/status\"}".getBytes(StandardCharsets.UTF_8),
                        "X-Gitea-Signature", WebhookSignature.sign(SECRET, "{\"ref\":\"refs/heads/windlass/status\"}".getBytes(StandardCharsets.UTF_8)));
                assertEquals(200, other.statusCode());
                assertTrue(other.body().contains("ignored"), other.body());

                HttpResponse<String> accepted = post(base, payload, "X-Hub-Signature-256", "sha256=" + WebhookSignature.sign(SECRET, payload));
                assertEquals(202, accepted.statusCode(), accepted.body());
                String pushed;
                try (org.eclipse.jgit.api.Git git = org.eclipse.jgit.api.Git.open(fleet.origin.toFile())) {
                    pushed = git.getRepository().resolve("refs/heads/main").name();
                }
                // The poll interval is an hour: only the webhook can make a pass reconcile the new commit now.
                await(() -> fleet.statusLog().size() > before && fleet.statusLog().get(0).getFullMessage()
                        .contains("Windlass-Source: " + pushed), "a status commit for the pushed commit " + pushed);
            }
        }
    }

    /** Without an interval of its own, the daemon polls as the repo's Settings say, and follows a change to them. */
    @Test
    void theRepositorysSettingsSetThePollIntervalWhenNoneIsGiven() throws Exception {
        try (TestFleet fleet = new TestFleet(dir)) {
            String settings = "apiVersion: windlass.dev/v1alpha1\nkind: Settings\nmetadata: {name: windlass}\nspec: {interval: %s}\n";
            fleet.push("add the fleet", c -> TestFleet.folder(EXAMPLES, "").apply(c).write("windlass.yaml", settings.formatted("7s")));
            try (Daemon daemon = new Daemon(fleet.engine.reconciler(), null, "main", null, new InetSocketAddress("127.0.0.1", 0), SECRET,
                    fleet.clock).start()) {
                await(() -> daemon.interval().equals(Duration.ofSeconds(7)), "the Settings' interval after the first pass");
                fleet.push("poll faster", c -> c.write("windlass.yaml", settings.formatted("2s")));
                await(() -> daemon.interval().equals(Duration.ofSeconds(2)), "the new interval, picked up by a poll");
            }
        }
    }

    private HttpResponse<String> get(String url) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(url)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private HttpResponse<String> post(String base, byte[] body, String header, String signature) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(base + "/webhook")).header(header, signature)
                .POST(HttpRequest.BodyPublishers.ofByteArray(body)).build(), HttpResponse.BodyHandlers.ofString());
    }

    /** Waits for a condition the daemon makes true in the background, failing after 60 seconds. */
    static void await(ThrowingCondition c, String what) throws Exception {
        Instant deadline = Instant.now().plusSeconds(60);
        while (!c.holds()) {
            if (Instant.now().isAfter(deadline)) throw new AssertionError("timed out waiting: " + what);
            Thread.onSpinWait();
            java.util.concurrent.locks.LockSupport.parkNanos(50_000_000);
        }
    }

    interface ThrowingCondition {
        boolean holds() throws Exception;
    }

}
