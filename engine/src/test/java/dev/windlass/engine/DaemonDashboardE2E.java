package dev.windlass.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.windlass.dashboard.BearerToken;
import dev.windlass.dashboard.Dashboard;
import dev.windlass.dashboard.GitLinks;
import dev.windlass.engine.schedule.Daemon;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The dashboard as {@code windlass run} serves it: on the daemon's own listener beside the probes and /metrics, from
 * the view each of the daemon's passes publishes, reviews included, behind its token while the probes are not.
 */
class DaemonDashboardE2E {
    static final String TOKEN = "dash-token-0c41";

    @TempDir Path dir;
    final HttpClient http = HttpClient.newHttpClient();

    @Test
    void theDaemonServesTheDashboardFromEachPassOnItsListener() throws Exception {
        try (TestFleet fleet = new TestFleet(dir)) {
            fleet.push("add the fleet", TestFleet.examples(fleet));
            fleet.pushTo("scale-web", "web: 3 replicas", c -> c.write("apps/web/manifests/deployment.yaml",
                    ReconcileLoopE2E.read(DaemonE2E.EXAMPLES.resolve("apps/web/manifests/deployment.yaml")).replace("replicas: 2", "replicas: 3")));
            Dashboard pages = new Dashboard(fleet.engine.views(), new BearerToken(TOKEN), GitLinks.NONE);
            try (Daemon daemon = new Daemon(fleet.engine.reconciler(), fleet.engine.reviews(), "main", Duration.ofHours(1),
                    new InetSocketAddress("127.0.0.1", 0), null, fleet.clock, null, pages).start()) {
                String base = "http://127.0.0.1:" + daemon.port();
                DaemonE2E.await(() -> get(base + "/api/plans", TOKEN).body().contains("\"ref\":\"scale-web\""),
                        "the first pass, then its reviews, are published");
                HttpResponse<String> fleetPage = get(base + "/", TOKEN);
                assertEquals(200, fleetPage.statusCode());
                for (String app : new String[] {"api", "cache", "greeter", "shop", "web"}) {
                    assertTrue(fleetPage.body().contains("<tr data-app=\"" + app + "\">"), app + " in\n" + fleetPage.body());
                }
                assertEquals(401, get(base + "/", null).statusCode());
                assertEquals(200, get(base + "/healthz", null).statusCode(), "the probes are not behind the dashboard's token");
                assertTrue(get(base + "/metrics", null).body().contains("windlass_reconcile_passes_total"));
                assertEquals(404, get(base + "/apps/nothing", TOKEN).statusCode());
            }
        }
    }

    HttpResponse<String> get(String url, String token) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url));
        if (token != null) b.header("Authorization", "Bearer " + token);
        return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }
}
