package dev.windlass.engine.dashboard;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.windlass.dashboard.Dashboard;
import dev.windlass.dashboard.DashboardServer;
import dev.windlass.dashboard.GitLinks;
import dev.windlass.engine.TestFleet;
import dev.windlass.engine.reconcile.PassReport;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Base64;
import java.util.Deque;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.WebElement;

/**
 * No Secret value reaches the dashboard: every page a person can reach from the fleet page, read in the browser (its
 * source and its text), and every JSON endpoint, searched for each value in plain and base64 form, as the plan tests
 * search the pull request comment. The values are in Git on main, on a reviewed branch (data and stringData), and
 * live on a cluster where someone changed the Secret by hand.
 */
class DashboardSecretsBrowserIT {
    static final String MAIN_PASSWORD = "main-password-4f1c";
    static final String BRANCH_PASSWORD = "branch-password-9d2e";
    static final String BRANCH_TOKEN = "branch-token-7a33";
    static final String LIVE_PASSWORD = "live-password-51b0";
    static final String SECRET = """
            apiVersion: v1
            kind: Secret
            metadata:
              name: web-credentials
            type: Opaque
            data:
              password: %s
            """;

    @TempDir Path dir;
    final HttpClient http = HttpClient.newHttpClient();

    static String base64(String s) { return Base64.getEncoder().encodeToString(s.getBytes(StandardCharsets.UTF_8)); }

    @Test
    void noSecretValueAppearsInAnyPageOrJsonEndpoint() throws Exception {
        try (TestFleet fleet = new TestFleet(dir);
             Browser b = Browser.open(DashboardBrowserIT.SHOTS)) {
            fleet.push("the fleet, web with a Secret", c -> TestFleet.examples(fleet).apply(c)
                    .write("apps/web/manifests/secret.yaml", SECRET.formatted(base64(MAIN_PASSWORD))));
            fleet.settle();
            fleet.pushTo("rotate", "rotate web's password", c -> c.write("apps/web/manifests/secret.yaml",
                    SECRET.formatted(base64(BRANCH_PASSWORD)) + "stringData:\n  token: " + BRANCH_TOKEN + "\n"));
            fleet.client("eu-2").secrets().inNamespace("web").withName("web-credentials")
                    .edit(s -> { s.getData().put("password", base64(LIVE_PASSWORD)); return s; });
            PassReport main = fleet.pass();
            fleet.engine.reviews().run(main.source(), main.desired());
            try (DashboardServer server = new DashboardServer(new InetSocketAddress("127.0.0.1", 0),
                    new Dashboard(fleet.engine.views(), null, GitLinks.NONE)).start()) {
                String base = "http://127.0.0.1:" + server.port();
                Set<String> pages = crawl(b, base);
                assertTrue(pages.containsAll(List.of("/", "/plans", "/apps/web", "/clusters/eu-2")), pages.toString());

                b.go(base + "/apps/web");
                b.find("#targets tr[data-cluster='eu-2'] details summary").click();
                String eu2 = b.text("#targets tr[data-cluster='eu-2']");
                assertTrue(eu2.contains("Secret web/web-credentials"), "the Secret is there to be shown: " + eu2);
                assertNoSecret("/apps/web with its inventory open", b.driver.getPageSource());
                b.go(base + "/plans");
                String review = b.text("section.plan[data-ref='rotate']");
                assertTrue(review.contains("Secret web/web-credentials") && review.contains("(redacted"), review);
                b.screenshot("plans-secret-redacted");

                for (String api : List.of("/api/fleet", "/api/plans", "/api/apps/web", "/api/clusters/eu-1", "/api/clusters/eu-2",
                        "/api/clusters/us-1", "/api/version")) {
                    HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(base + api)).build(), HttpResponse.BodyHandlers.ofString());
                    assertEquals(200, r.statusCode(), api);
                    assertNoSecret(api, r.body());
                }
            }
        }
    }

    /** Visits every page linked from the fleet page, and from those, in the browser; checks each as it goes. */
    static Set<String> crawl(Browser b, String base) {
        Set<String> seen = new LinkedHashSet<>();
        Deque<String> next = new ArrayDeque<>(List.of("/"));
        while (!next.isEmpty() && seen.size() < 60) {
            String path = next.poll();
            if (!seen.add(path)) continue;
            b.go(base + path);
            assertNoSecret(path + " (source)", b.driver.getPageSource());
            assertNoSecret(path + " (text)", b.find("body").getText());
            for (WebElement a : b.all("a[href]")) {
                String href = a.getAttribute("href");
                if (href == null || !href.startsWith(base + "/")) continue;
                String p = URI.create(href).getRawPath() + (URI.create(href).getRawQuery() == null ? "" : "?" + URI.create(href).getRawQuery());
                if (!seen.contains(p)) next.add(p);
            }
        }
        return seen;
    }

    static void assertNoSecret(String where, String text) {
        for (String value : List.of(MAIN_PASSWORD, BRANCH_PASSWORD, BRANCH_TOKEN, LIVE_PASSWORD)) {
            for (String form : List.of(value, base64(value))) {
                assertFalse(text.contains(form), "'" + form + "' is in " + where + ":\n" + text);
            }
        }
    }
}
