package dev.windlass.engine.dashboard;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.windlass.engine.demo.Demo;
import java.io.PrintWriter;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.interactions.Actions;

/**
 * The dashboard in a real headless browser while the demo fleet goes through its story: a rollout in waves, a failed
 * release, a freeze, a failover and a remediation blocked by quorum. At each moment the demo waits while the test reads
 * the pages as a person would (cells, states, reasons) and saves screenshots under target/dashboard-screenshots/.
 */
class DashboardBrowserIT {
    static final Path SHOTS = Path.of("target", "dashboard-screenshots");
    static final Duration SOON = Duration.ofSeconds(20);

    @TempDir Path dir;

    @Test
    void aPersonFollowsRolloutFreezeAndFailoverOnTheDashboard() throws Exception {
        List<String> seen = new ArrayList<>();
        try (Browser b = Browser.open(SHOTS);
             PrintWriter story = new PrintWriter(Files.newBufferedWriter(Path.of("target", "dashboard-demo-story.txt"), StandardCharsets.UTF_8))) {
            Demo demo = new Demo(dir.resolve("demo"), Path.of("..", "examples-repo"), story, new InetSocketAddress("127.0.0.1", 0), false,
                    (moment, engine, url) -> {
                        seen.add(moment);
                        switch (moment) {
                            case "rollout" -> rolledOutInWaves(b, url);
                            case "rollout-failed" -> failedAtTheCanary(b, url);
                            case "frozen" -> frozen(b, url);
                            case "failing-over" -> failingOver(b, url, engine);
                            case "failed-over" -> failedOver(b, url);
                            case "remediation-blocked" -> remediationBlocked(b, url);
                            case "reviewed" -> reviewed(b, url);
                            default -> { }
                        }
                    });
            assertEquals(0, demo.run());
        }
        assertEquals(List.of("rollout", "rollout-failed", "frozen", "failing-over", "failed-over", "remediation-blocked", "reviewed", "end"), seen);
        String told = Files.readString(Path.of("target", "dashboard-demo-story.txt"));
        assertTrue(told.matches("(?s).*\nDashboard: http://127\\.0\\.0\\.1:\\d+/ .*"), "the demo prints where its dashboard is:\n" + told);
    }

    /** The matrix cell of an application on a cluster. */
    static WebElement cell(Browser b, String app, String cluster) {
        return b.find("tr[data-app='" + app + "'] td[data-cluster='" + cluster + "']");
    }

    static void rolledOutInWaves(Browser b, String url) {
        b.go(url + "apps/web");
        String waves = b.text("#waves");
        List<String> order = List.of("eu-1", "eu-2", "us-1");
        for (int i = 0; i < order.size(); i++) {
            String step = b.text("#waves .step[data-cluster='" + order.get(i) + "']");
            assertTrue(step.startsWith("Wave " + (i + 1) + " " + order.get(i)) && step.contains("Succeeded"), step + " in\n" + waves);
        }
        assertTrue(b.text("#rollout-summary").contains("Succeeded"), b.text("#rollout-summary"));
        b.screenshot("app-web-rolled-out");
        b.go(url);
        for (String cluster : List.of("eu-1", "eu-2", "us-1")) {
            String cell = cell(b, "web", cluster).getText();
            assertTrue(cell.contains("Synced") && cell.contains("Healthy"), cluster + ": " + cell);
        }
    }

    static void failedAtTheCanary(Browser b, String url) {
        b.go(url + "apps/web");
        String canary = b.text("#waves .step[data-cluster='eu-1'] .step-state");
        assertTrue(canary.contains("Timed out") || canary.contains("Failed"), canary);
        assertTrue(b.text("#waves .step[data-cluster='eu-2'] .step-state").contains("Pending"));
        assertTrue(b.text("#rollout-summary").contains("Failed"), b.text("#rollout-summary"));
        String eu2 = b.text("#targets tr[data-cluster='eu-2']");
        assertTrue(eu2.contains("Held") && eu2.contains("is invalid"), eu2);
        b.screenshot("app-web-failed-at-canary");
        b.go(url + "?problem=Degraded");
        assertEquals(1, b.all("tr[data-app]").size(), "only web is degraded");
        assertTrue(cell(b, "web", "eu-1").getText().contains("Degraded"));
    }

    static void frozen(Browser b, String url) {
        b.go(url);
        for (String cluster : List.of("eu-1", "eu-2", "us-1")) {
            WebElement cell = cell(b, "shop", cluster);
            assertTrue(cell.getText().contains("Suspended"), cluster + ": " + cell.getText());
        }
        WebElement shop = cell(b, "shop", "eu-2");
        WebElement why = shop.findElement(org.openqa.selenium.By.cssSelector(".why"));
        assertTrue(!why.isDisplayed(), "the reason shows on hover or focus only");
        new Actions(b.driver).moveToElement(shop).perform();
        b.await(why::isDisplayed, SOON, "the reason shows on hover");
        assertTrue(why.getText().contains("Freeze/sale until the Freeze is removed: spring sale: the shop stays as it is"), why.getText());
        b.screenshot("fleet-frozen");
        new Actions(b.driver).moveByOffset(0, 400).perform();
        b.script("document.activeElement.blur();");
        b.find("tr[data-app='shop'] th a").sendKeys(org.openqa.selenium.Keys.TAB);
        b.await(() -> b.driver.switchTo().activeElement().getAttribute("data-cluster").equals("eu-1"), SOON, "Tab moves focus to the first cell");
        b.await(() -> b.driver.switchTo().activeElement().findElement(org.openqa.selenium.By.cssSelector(".why")).isDisplayed(), SOON,
                "the focused cell shows its reason");
        b.go(url + "clusters/eu-2");
        String sale = b.text("#freezes tr[data-freeze='sale']");
        assertTrue(sale.contains("Frozen now") && sale.contains("spring sale: the shop stays as it is"), sale);
        String yearEnd = b.text("#freezes tr[data-freeze='year-end']");
        assertTrue((yearEnd.contains("Not in force") || yearEnd.contains("Frozen now")) && yearEnd.matches("(?s).*\\d{4}-12-24 00:00:00Z until \\d{4}-12-27 00:00:00Z.*"), yearEnd);
        b.screenshot("cluster-eu-2-freezes");
        b.go(url + "?label=team%3Dcommerce");
        assertEquals(1, b.all("tr[data-app]").size());
    }

    static void failingOver(Browser b, String url, dev.windlass.engine.reconcile.Engine engine) throws Exception {
        b.go(url);
        assertTrue(b.text("thead th:nth-child(2)").contains("eu-1") && b.text("thead th:nth-child(2)").contains("Unreachable"),
                b.text("thead"));
        b.screenshot("fleet-failing-over");
        Files.copy(SHOTS.resolve("fleet-failing-over.png"), SHOTS.resolve("dashboard.png"), StandardCopyOption.REPLACE_EXISTING);
        b.go(url + "apps/stream");
        String timeline = b.text("#failovers");
        assertTrue(timeline.contains("Under way") && timeline.contains("leaving eu-1 (ClusterUnreachable)"), timeline);
        // Live: the open page follows the next pass without being reloaded.
        b.go(url + "clusters/eu-1");
        b.script("window.stillTheSamePage = true;");
        int ticks = b.all("#history li").size();
        Object version = b.script("return document.body.getAttribute('data-version');");
        assertTrue(b.text("#reachability").contains("Unreachable"), b.text("#reachability"));
        engine.reconciler().reconcile();
        // The page keeps the last ViewBoard.SAMPLES marks: once it has that many, a new pass drops the oldest.
        int expected = Math.min(ticks + 1, dev.windlass.dashboard.ViewBoard.SAMPLES);
        b.await(() -> !version.equals(b.script("return document.body.getAttribute('data-version');")) && b.all("#history li").size() == expected, SOON,
                "the cluster page shows the next pass by itself (" + expected + " marks, was " + ticks + ")");
        assertEquals(Boolean.TRUE, b.script("return window.stillTheSamePage === true;"), "updated in place, not reloaded");
        b.screenshot("cluster-eu-1-unreachable");
    }

    static void failedOver(Browser b, String url) {
        b.go(url + "apps/stream");
        String timeline = b.text("#failovers");
        assertTrue(timeline.contains("Failed over") && timeline.contains("moved from eu-1 to eu-2 (ClusterUnreachable)")
                && timeline.contains("windlass.dev/checkpoint=48213"), timeline);
        String eu1 = b.text("#placement tr[data-cluster='eu-1']");
        assertTrue(eu1.contains("Not placed") && eu1.contains("evicted by failover (ClusterUnreachable)"), eu1);
        b.screenshot("app-stream-failed-over");
        b.go(url);
        assertTrue(cell(b, "stream", "eu-2").getText().contains("Synced"));
    }

    static void remediationBlocked(Browser b, String url) {
        b.go(url + "clusters/eu-1");
        String quorum = b.text("#quorum");
        assertTrue(quorum.contains("control-plane") && quorum.contains("Blocked") && quorum.contains("lost quorum"), quorum);
        String marks = b.text("#marks");
        assertTrue(marks.contains("eu-1-cp-2") && marks.contains("eu-1-cp-3"), marks);
        b.screenshot("cluster-eu-1-quorum");
    }

    static void reviewed(Browser b, String url) {
        b.go(url + "plans");
        String review = b.text("section.plan[data-ref='scale-cache']");
        assertTrue(review.contains("StatefulSet cache/redis"), review);
        assertTrue(b.text("section.plan[data-ref='main']").contains("Windlass plan for main"));
        b.screenshot("plans");
    }
}
