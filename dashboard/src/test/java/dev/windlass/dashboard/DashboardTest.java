package dev.windlass.dashboard;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The pages and their JSON as served, from views built by the real parser and shaped as the engine records status. */
class DashboardTest {
    final HttpClient http = HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NEVER).build();
    DashboardServer server;
    String base;

    ViewBoard serve(BearerToken token, GitLinks links) throws Exception {
        ViewBoard board = new ViewBoard();
        server = new DashboardServer(new InetSocketAddress("127.0.0.1", 0), new Dashboard(board, token, links)).start();
        base = "http://127.0.0.1:" + server.port();
        return board;
    }

    @AfterEach void stop() throws Exception {
        if (server != null) server.close();
    }

    HttpResponse<String> get(String path, String... headers) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + path));
        for (int i = 0; i + 1 < headers.length; i += 2) b.header(headers[i], headers[i + 1]);
        return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    /** The matrix cell of {@code app} on {@code cluster}, as HTML. */
    static String cell(String page, String app, String cluster) {
        Matcher row = Pattern.compile("<tr data-app=\"" + app + "\">(.*?)</tr>", Pattern.DOTALL).matcher(page);
        assertTrue(row.find(), "no row for " + app + " in\n" + page);
        Matcher cell = Pattern.compile("<td class=\"cell[^\"]*\" data-cluster=\"" + cluster + "\".*?</td>", Pattern.DOTALL).matcher(row.group(1));
        assertTrue(cell.find(), "no cell for " + cluster + " in row " + app);
        return cell.group();
    }

    @Test
    void beforeTheFirstPassThePageSaysItWaits() throws Exception {
        serve(null, null);
        HttpResponse<String> r = get("/");
        assertEquals(503, r.statusCode());
        assertTrue(r.body().contains("Waiting for the first pass"), r.body());
    }

    @Test
    void theMatrixShowsEachCellsStateInWordsAndMarksHeldAndFrozenCellsWithTheirReason() throws Exception {
        ViewBoard board = serve(null, null);
        board.publish(Views.view(0, "ready 0/2", null, Views.NOW));
        String page = get("/").body();
        String webUs = cell(page, "web", "us-1");
        assertTrue(webUs.contains("OutOfSync") && webUs.contains("Degraded") && webUs.contains("rev00001"), webUs);
        assertTrue(webUs.contains("Held") && webUs.contains("rollout waves: waits for wave 2 (progressing: us-2)"), webUs);
        assertTrue(webUs.contains("drift: spec.replicas"), webUs);
        String apiUs = cell(page, "api", "us-1");
        assertTrue(apiUs.contains("Suspended") && apiUs.contains("Freeze/launch until the Freeze is removed: launch &lt;b&gt;week&lt;/b&gt;"), apiUs);
        String apiEu = cell(page, "api", "eu-1");
        assertTrue(apiEu.contains("Synced") && apiEu.contains("Healthy") && !apiEu.contains("Suspended"), apiEu);
        assertTrue(page.contains("tabindex=\"0\""), "cells take keyboard focus");
        Matcher broken = Pattern.compile("<tr data-app=\"broken\">.*?</th>", Pattern.DOTALL).matcher(page);
        assertTrue(broken.find() && broken.group().contains("Invalid"), page);
        assertTrue(page.contains("apps/broken/manifests/deploy.yaml:5:13"), "the repo's problems are listed with path:line:col");
        assertTrue(page.contains("<th scope=\"col\"><a href=\"/clusters/us-1\">us-1</a><br><span class=\"badge bad\"><span aria-hidden=\"true\">✖</span> Unreachable</span>"), page);
    }

    @Test
    void everyPageSaysWhichReplicaRanThePassAsItsStatusCommitsNameIt() throws Exception {
        ViewBoard board = serve(null, null);
        FleetView v = Views.view(0, "ready 0/2", null, Views.NOW);
        board.publish(new FleetView(v.at(), v.branch(), v.source(), v.state(), v.desired(), v.plan(), v.reviews(), "r-a_1a2b3c4d (shards 0,2)"));
        for (String page : java.util.List.of("/", "/plans", "/apps/web", "/clusters/eu-1")) {
            String body = get(page).body();
            assertTrue(body.contains(", run by <span class=\"writer\">r-a_1a2b3c4d (shards 0,2)</span>"), page + ":\n" + body);
        }
        board.reviews(new java.util.TreeMap<>());
        assertTrue(get("/").body().contains("r-a_1a2b3c4d (shards 0,2)"), "kept when the reviews are republished");
    }

    @Test
    void aTipThatFailedItsSignatureCheckIsSaidAtTheTopOfTheFleetPage() throws Exception {
        ViewBoard board = serve(null, null);
        FleetView v = Views.view(0, "ready 0/2", null, Views.NOW);
        board.publish(v);
        assertFalse(get("/").body().contains("Not applied"), "nothing said while the tip is applied");
        String tip = "1a2b3c4d".repeat(5);
        var refused = new dev.windlass.policy.source.Verification(dev.windlass.policy.model.VerifySettings.Mode.Tip, "9f8e7d6c".repeat(5), tip,
                new dev.windlass.policy.source.Verification.Refusal(tip, dev.windlass.policy.source.SignatureOutcome.UNKNOWN_KEY,
                        "ABCD1234ABCD1234ABCD1234"));
        board.publish(new FleetView(v.at(), v.branch(), v.source(), v.state(), v.desired(), v.plan(), v.reviews(), "", refused));
        assertTrue(get("/").body().contains("<p class=\"not-applied\" role=\"alert\"><span class=\"badge bad\">Not applied</span> commit 1a2b3c4"
                + " is signed by an unknown key ABCD1234ABCD1234…; nothing of it is applied; still applying 9f8e7d6</p>"), get("/").body());
    }

    @Test
    void aShardedReplicaShowsWhoHoldsWhichShardAndWhichReplicasAreUp() throws Exception {
        ViewBoard board = serve(null, null);
        board.publish(Views.view(0, "ready 0/2", null, Views.NOW));
        assertFalse(get("/").body().contains("id=\"shards\""), "no section on an engine without shards");
        java.util.SortedMap<Integer, String> holders = new java.util.TreeMap<>(java.util.Map.of(0, "r-a_1", 1, "r-b_2", 2, "r-a_1"));
        java.util.SortedMap<String, dev.windlass.policy.shard.ShardSpread.Replica> up = new java.util.TreeMap<>(java.util.Map.of(
                "r-b_2", new dev.windlass.policy.shard.ShardSpread.Replica(true, new java.util.TreeSet<>()),
                "r-c_3", new dev.windlass.policy.shard.ShardSpread.Replica(false, new java.util.TreeSet<>())));
        board.shards(() -> new dev.windlass.policy.shard.ShardSpread(4, "r-a_1", holders, up));
        String page = get("/").body();
        assertTrue(page.contains("r-a_1 holds 2 of 4 shards; 3 replicas up, 1 or 2 shards each once spread."), page);
        assertTrue(Pattern.compile("<tr data-shard=\"0\"><th scope=\"row\">0</th><td>r-a_1 <strong>\\(this replica\\)</strong></td>").matcher(page).find(), page);
        assertTrue(page.contains("<tr data-shard=\"1\"><th scope=\"row\">1</th><td>r-b_2</td>"), page);
        assertTrue(page.contains("<tr data-shard=\"3\"><th scope=\"row\">3</th><td><span class=\"badge warn\">free</span></td>"), page);
        assertTrue(page.contains("<li data-replica=\"r-c_3\">r-c_3: holds 0, just up: no shard is given to it yet</li>"), page);
        assertTrue(get("/api/fleet").body().contains("\"shards\":{\"rows\":[{\"shard\":0,\"holder\":\"r-a_1\",\"mine\":true"),
                "the JSON says the same");
    }

    @Test
    void theFleetPageShowsTheLastAlertsAndHowEachDeliveryStands() throws Exception {
        ViewBoard board = serve(null, null);
        board.publish(Views.view(0, "ready 0/2", null, Views.NOW));
        assertFalse(get("/").body().contains("id=\"alerts\""), "no section before anything was alerted");
        board.alerts(() -> java.util.List.of(
                new AlertPanel.Row("2026-11-27T10:00:00Z", "WaveStarted", "info", "web", "r2", "hook", "Delivered", 1, ""),
                new AlertPanel.Row("2026-11-27T10:01:00Z", "WaveFailed", "error", "web on eu-2", "r2", "hook", "Pending", 3, "no answer: HttpTimeoutException"),
                new AlertPanel.Row("2026-11-27T10:01:00Z", "ClusterUnreachable", "error", "cluster us-1", "", "chat", "Failed", 1, "answered 404")));
        String page = get("/").body();
        assertTrue(page.contains("1 waiting to be delivered, 1 given up; the last 3 shown, newest first."), page);
        int failed = page.indexOf("<tr data-provider=\"chat\" data-state=\"Failed\"><td>2026-11-27T10:01:00Z</td><td>ClusterUnreachable (error)</td><td>cluster us-1</td>"
                + "<td>chat</td><td class=\"delivery\">failed after 1 try: answered 404</td></tr>");
        int pending = page.indexOf("<td>web on eu-2 at r2</td><td>hook</td><td class=\"delivery\">pending (3 tries so far: no answer: HttpTimeoutException)</td>");
        int delivered = page.indexOf("<td class=\"delivery\">delivered (1 try)</td>");
        assertTrue(failed > 0 && pending > failed && delivered > pending, "newest first:\n" + page);
        assertTrue(get("/api/fleet").body().contains("\"alerts\":{\"rows\":[{\"at\":\"2026-11-27T10:01:00Z\",\"kind\":\"ClusterUnreachable\""),
                get("/api/fleet").body());
    }

    @Test
    void filtersByProblemAndByLabelAndPagesLargeFleets() throws Exception {
        ViewBoard board = serve(null, null);
        board.publish(Views.view(120, "ready 0/2", null, Views.NOW));
        String degraded = get("/?problem=Degraded").body();
        assertTrue(degraded.contains("data-app=\"web\""));
        assertFalse(degraded.contains("data-app=\"api\""), "api is not degraded");
        String invalid = get("/?problem=Invalid").body();
        assertTrue(invalid.contains("data-app=\"broken\"") && !invalid.contains("data-app=\"web\""));
        String held = get("/?problem=Held").body();
        assertTrue(held.contains("data-app=\"web\"") && held.contains("data-app=\"api\"") && !held.contains("data-app=\"app-0000\""));
        String backend = get("/?label=tier%3Dbackend").body();
        assertTrue(backend.contains("data-app=\"api\"") && backend.contains("data-app=\"broken\"") && !backend.contains("data-app=\"web\""));
        String eu = get("/?cluster=region%3Deu&label=tier%3Dfrontend").body();
        assertTrue(eu.contains("data-cluster=\"eu-1\"") && !eu.contains("data-cluster=\"us-1\""), "only the eu cluster's column: " + eu);
        assertEquals(1, count(eu, "<tr data-app="));
        String first = get("/").body();
        assertEquals(FleetPage.PAGE_SIZE, count(first, "<tr data-app="));
        assertTrue(first.contains("Page 1 of 3"), "123 applications make 3 pages of 50");
        String last = get("/?page=3").body();
        assertEquals(123 - 2 * FleetPage.PAGE_SIZE, count(last, "<tr data-app="));
        assertTrue(last.contains("data-app=\"web\""), "sorted by name, web is on the last page");
        String json = get("/api/fleet?problem=OutOfSync").body();
        assertTrue(json.contains("\"app\":\"web\"") && !json.contains("\"app\":\"api\""), json);
    }

    @Test
    void everyValueIsEscaped() throws Exception {
        ViewBoard board = serve(null, null);
        board.publish(Views.view(0, "<img src=x onerror=alert(1)>", null, Views.NOW));
        for (String path : new String[] {"/", "/apps/web", "/clusters/us-1", "/plans"}) {
            String page = get(path).body();
            assertFalse(page.contains("<img src=x") || page.contains("<script>alert"), path + " lets markup through:\n" + page);
        }
        assertTrue(get("/apps/web").body().contains("&lt;img src&#61;x onerror&#61;alert(1)&gt;"));
        HttpResponse<String> plans = get("/plans");
        assertTrue(plans.body().contains("&lt;script&gt;alert(1)&lt;/script&gt;"), plans.statusCode() + " " + plans.body() + "the plan's Markdown is rendered, its HTML escaped");
    }

    @Test
    void theApplicationPageDrawsWavesOverTimeAndAFailoverTimelineWithBlockedAttempts() throws Exception {
        ViewBoard board = serve(null, new GitLinks("https://git.example.com/platform/fleet", "gitea"));
        board.publish(Views.view(0, "ready 0/2", "no other cluster is eligible", Views.NOW.minusSeconds(60)));
        board.publish(Views.view(0, "ready 0/2", "no other cluster is eligible", Views.NOW));
        String page = get("/apps/web").body();
        String waves = section(page, "id=\"waves\"");
        assertTrue(waves.contains("Wave 1") && waves.contains("Wave 2"), waves);
        assertTrue(Pattern.compile("data-cluster=\"eu-1\".*?Succeeded", Pattern.DOTALL).matcher(waves).find(), waves);
        assertTrue(Pattern.compile("data-cluster=\"us-1\".*?Soaking", Pattern.DOTALL).matcher(waves).find(), waves);
        assertTrue(waves.contains("<rect x=\"0.00\" y=\"0\" width=\"50.00\""), "eu-1 took the first 5 of the rollout's 10 minutes: " + waves);
        String failovers = section(page, "id=\"failovers\"");
        assertTrue(failovers.contains("Failed over") && failovers.contains("moved from us-1 to eu-1 (ClusterUnreachable)")
                && failovers.contains("windlass.dev/checkpoint&#61;48213"), failovers);
        assertTrue(failovers.contains("Attempt failed") && failovers.contains("us-1 failed too before it was healthy"), failovers);
        assertTrue(failovers.contains("Blocked") && failovers.contains("no other cluster is eligible; until 2026-11-21 09:10:00Z"), failovers);
        String broken = get("/apps/broken").body();
        assertTrue(broken.contains("<a href=\"https://git.example.com/platform/fleet/src/commit/" + Views.SOURCE
                + "/apps/broken/manifests/deploy.yaml#L5\"><code>apps/broken/manifests/deploy.yaml:5:13</code></a>"), broken);
        assertEquals(404, get("/apps/nothing").statusCode());
    }

    @Test
    void theClusterPageShowsReachabilityOverTimeQuorumBudgetsAndTheNextFreezeWindow() throws Exception {
        ViewBoard board = serve(null, null);
        board.publish(Views.view(0, "", null, Views.NOW.minusSeconds(30)));
        board.publish(Views.view(0, "", null, Views.NOW));
        String eu = get("/clusters/eu-1").body();
        String quorum = section(eu, "id=\"quorum\"");
        assertTrue(quorum.contains("<td>3</td><td>2</td><td>2</td><td>1</td><td>0 more may fail and quorum holds</td>"), quorum);
        assertTrue(quorum.contains("Blocked") && quorum.contains("one remediation in flight"), quorum);
        assertTrue(section(eu, "id=\"marks\"").contains("Node eu-1-cp-2") && eu.contains("Marked"), eu);
        assertTrue(eu.contains("year-end") && eu.contains("2026-12-24 00:00:00Z until 2026-12-27 00:00:00Z"), "the next freeze window: " + eu);
        String us = get("/clusters/us-1").body();
        assertEquals(2, count(section(us, "id=\"history\""), "<li class=\"tick bad\""), us);
        assertTrue(us.contains("Frozen now") && us.contains("launch"), us);
    }

    @Test
    void aTokenGuardsEveryPageAndABrowserBringsItOnce() throws Exception {
        ViewBoard board = serve(new BearerToken("t0ken-2b7e"), null);
        board.publish(Views.view(0, "", null, Views.NOW));
        assertEquals(401, get("/").statusCode());
        assertEquals(401, get("/api/fleet", "Authorization", "Bearer wrong").statusCode());
        assertEquals(401, get("/static/live.js").statusCode());
        assertEquals(200, get("/api/fleet", "Authorization", "Bearer t0ken-2b7e").statusCode());
        HttpResponse<String> once = get("/?token=t0ken-2b7e&problem=Held");
        assertEquals(302, once.statusCode());
        URI to = URI.create(once.headers().firstValue("Location").orElseThrow());
        assertEquals("/", to.getPath());
        assertEquals("problem=Held", to.getQuery(), "the filter stays, the token goes");
        String cookie = once.headers().firstValue("Set-Cookie").orElseThrow();
        assertTrue(cookie.contains("HttpOnly") && cookie.contains("SameSite=Strict"), cookie);
        assertEquals(200, get("/apps/web", "Cookie", cookie.substring(0, cookie.indexOf(';'))).statusCode());
    }

    @Test
    void nothingCanBeWritten() throws Exception {
        ViewBoard board = serve(null, null);
        board.publish(Views.view(0, "", null, Views.NOW));
        for (String method : new String[] {"POST", "PUT", "DELETE", "PATCH"}) {
            HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(base + "/apps/web"))
                    .method(method, HttpRequest.BodyPublishers.ofString("x")).build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(405, r.statusCode(), method);
        }
        HttpResponse<String> page = get("/");
        String csp = page.headers().firstValue("Content-Security-Policy").orElse("");
        assertTrue(csp.contains("script-src 'self'") && csp.contains("frame-ancestors 'none'"), csp);
        assertNotNull(get("/static/dashboard.css").headers().firstValue("Content-Type").filter(t -> t.startsWith("text/css")).orElse(null));
    }

    static String section(String page, String marker) {
        int at = page.indexOf(marker);
        assertTrue(at >= 0, "no " + marker + " in\n" + page);
        int end = page.indexOf("</section>", at);
        return page.substring(at, end < 0 ? page.length() : end);
    }

    static int count(String text, String what) {
        int n = 0;
        for (int i = text.indexOf(what); i >= 0; i = text.indexOf(what, i + 1)) n++;
        return n;
    }
}
