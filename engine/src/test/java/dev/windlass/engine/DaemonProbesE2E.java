package dev.windlass.engine;

import static dev.windlass.engine.DaemonE2E.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.windlass.engine.schedule.Daemon;
import dev.windlass.sandbox.SandboxCluster;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What an orchestrator sees of the daemon on sandbox clusters: {@code /readyz} turns 503 once passes have failed for
 * longer than the readiness window and says why, {@code /healthz} stays 200 while the loop moves and turns 503 when it
 * stops, and a shutdown lets the pass in flight finish and record its status before returning.
 */
class DaemonProbesE2E {
    static final Path EXAMPLES = Path.of("..", "examples-repo");
    static final Duration READY_WITHIN = Duration.ofMinutes(2);

    @TempDir Path dir;
    final HttpClient http = HttpClient.newHttpClient();

    @Test
    void readyzSaysWhyWhenPassesKeepFailingAndHealthzWhenTheLoopStops() throws Exception {
        try (TestFleet fleet = new TestFleet(dir)) {
            fleet.push("add the fleet", TestFleet.folder(EXAMPLES, ""));
            try (Daemon daemon = new Daemon(fleet.engine.reconciler(), null, "main", Duration.ofHours(1),
                    new InetSocketAddress("127.0.0.1", 0), null, fleet.clock, READY_WITHIN).start()) {
                String base = "http://127.0.0.1:" + daemon.port();
                HttpResponse<String> early = get(base + "/readyz");
                if (early.statusCode() == 503) assertTrue(early.body().startsWith("not ready: no pass has succeeded yet"), early.body());
                await(() -> get(base + "/readyz").statusCode() == 200, "ready after the first pass");
                HttpResponse<String> ready = get(base + "/readyz");
                assertTrue(ready.body().startsWith("ready\nlast successful pass: 2026-11-21T09:00:00Z source "), ready.body());

                // The config repo goes away: every fetch fails from now on.
                deleteTree(fleet.origin);
                triggerPass(base);
                await(() -> get(base + "/readyz").body().contains("last pass failed"), "the failed pass shows on /readyz");
                HttpResponse<String> within = get(base + "/readyz");
                assertEquals(200, within.statusCode(), "still within the window: " + within.body());

                fleet.clock.advance(READY_WITHIN.plusSeconds(1));
                triggerPass(base);
                // /readyz reads the clock, so it turns 503 as soon as the clock moves; wait for the pass itself to fail.
                await(() -> get(base + "/readyz").body().contains("last pass failed at 2026-11-21T09:02:01Z"),
                        "the second failed pass shows on /readyz");
                HttpResponse<String> notReady = get(base + "/readyz");
                assertEquals(503, notReady.statusCode(), "not ready once the window has passed: " + notReady.body());
                assertTrue(notReady.body().startsWith("not ready: the last successful pass finished 121s ago, more than 120s\n"
                        + "last pass failed at 2026-11-21T09:02:01Z: "), notReady.body());
                assertTrue(notReady.body().contains("origin.git"), "names what could not be fetched: " + notReady.body());
                HttpResponse<String> live = get(base + "/healthz");
                assertEquals(200, live.statusCode(), "failing passes are no reason to restart: " + live.body());
                assertTrue(live.body().startsWith("ok\nlast pass: 2026-11-21T09:02:01Z failed: "), live.body());

                // No pass starts or finishes for longer than three intervals: the loop is stuck, restart it.
                fleet.clock.advance(Duration.ofHours(3).plusSeconds(1));
                HttpResponse<String> stuck = get(base + "/healthz");
                assertEquals(503, stuck.statusCode(), stuck.body());
                assertTrue(stuck.body().startsWith("stuck: no pass started or finished for 10801s (limit 10800s)\n"), stuck.body());
            }
        }
    }

    @Test
    void shutdownWaitsForThePassInFlightWhichRecordsItsStatus() throws Exception {
        try (TestFleet fleet = new TestFleet(dir)) {
            fleet.push("add the fleet", TestFleet.folder(EXAMPLES, ""));
            Daemon daemon = new Daemon(fleet.engine.reconciler(), null, "main", Duration.ofHours(1),
                    new InetSocketAddress("127.0.0.1", 0), null, fleet.clock, null).start();
            String base = "http://127.0.0.1:" + daemon.port();
            await(() -> get(base + "/readyz").statusCode() == 200, "the first pass");
            await(() -> fleet.statusLog().size() > 0, "the first status commit");

            // Every answer of every cluster comes 300 ms late: applying a new image takes a while.
            for (SandboxCluster c : fleet.sandbox.clusters()) c.latency(Duration.ofMillis(300));
            fleet.push("web 1.5.0", c -> c.write("apps/web/manifests/deployment.yaml",
                    ReconcileLoopE2E.read(EXAMPLES.resolve("apps/web/manifests/deployment.yaml")).replace("web:1.4.2", "web:1.5.0")));
            String pushed = fleet.head("refs/heads/main");
            triggerPass(base);
            await(() -> get(base + "/healthz").body().contains("pass in flight since"), "the pass of the new commit running");

            Duration grace = Duration.ofSeconds(30);
            long start = System.nanoTime();
            boolean finished = daemon.shutdown(grace);
            Duration took = Duration.ofNanos(System.nanoTime() - start);

            assertTrue(finished, "the pass in flight finished within the grace");
            assertTrue(took.compareTo(grace) < 0, "shutdown returned within the grace: " + took);
            String head = fleet.statusLog().get(0).getFullMessage();
            assertTrue(head.contains("Windlass-Source: " + pushed), "the pass recorded its status before shutdown returned:\n" + head);
            assertFalse(answers(base), "the HTTP listener is closed");
        }
    }

    private void triggerPass(String base) throws Exception {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(base + "/webhook"))
                .POST(HttpRequest.BodyPublishers.ofString("{\"ref\":\"refs/heads/main\"}", StandardCharsets.UTF_8)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(202, r.statusCode(), r.body());
    }

    private HttpResponse<String> get(String url) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(url)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private boolean answers(String base) {
        try {
            get(base + "/healthz");
            return true;
        } catch (Exception e) {
            return false;
        }
    }

    static void deleteTree(Path root) throws Exception {
        try (Stream<Path> files = Files.walk(root)) {
            for (Path p : files.sorted(Comparator.reverseOrder()).toList()) Files.delete(p);
        }
    }
}
