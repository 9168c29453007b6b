package dev.windlass.bench;

import dev.windlass.policy.state.Health;
import dev.windlass.policy.state.Sync;

import dev.windlass.dashboard.Dashboard;
import dev.windlass.dashboard.DashboardServer;
import dev.windlass.dashboard.FleetView;
import dev.windlass.dashboard.GitLinks;
import dev.windlass.dashboard.ViewBoard;
import dev.windlass.policy.model.Application;
import dev.windlass.policy.model.DesiredState;
import dev.windlass.policy.model.Manifest;
import dev.windlass.policy.parse.RepoParser;
import dev.windlass.policy.plan.Action;
import dev.windlass.policy.plan.ActionReason;
import dev.windlass.policy.plan.HeldAction;
import dev.windlass.policy.plan.Operation;
import dev.windlass.policy.plan.Plan;
import dev.windlass.policy.source.MapSnapshot;
import dev.windlass.policy.state.AppStatus;
import dev.windlass.policy.state.ClusterStatus;
import dev.windlass.policy.state.EngineState;
import dev.windlass.policy.state.InventoryEntry;
import dev.windlass.policy.state.TargetStatus;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;

/**
 * {@code windlass bench --scenario dashboard}: the dashboard's fleet page for a fleet of the bench's shape, loaded in
 * Debian's headless chromium (scripts/browser-test-env.sh installs it). The view is what the engine would publish for
 * that fleet: the bench's synthetic repo read by the real parser, and on every cluster each application recorded as
 * the status branch records it (inventory of every object; one target in 17 out of sync, one in 29 degraded, one
 * application in 31 held on the last cluster). Figures: the page's server time (HTTP, no browser), and in the
 * browser, from navigation start to the load event (HTML received, parsed, styled, laid out, its script run) for
 * page 1, the last page and a problem filter, cold (first load of the process) and warm.
 */
final class DashboardLoad {
    static final Duration GOAL = Duration.ofSeconds(2);
    private static final String CHROMIUM = System.getenv().getOrDefault("WINDLASS_CHROMIUM", "/usr/bin/chromium");
    private static final String DRIVER = System.getenv().getOrDefault("WINDLASS_CHROMEDRIVER", "/usr/bin/chromedriver");

    private final FleetShape shape;
    private final int runs;
    private final PrintStream out;

    DashboardLoad(FleetShape shape, int runs, PrintStream out) {
        this.shape = shape;
        this.runs = runs;
        this.out = out;
    }

    /** Prints the figures, and whether every page loaded within the goal. */
    void run() throws Exception {
        long t0 = System.nanoTime();
        FleetView view = view();
        out.printf("view of %s built in %d ms (%d targets)%n", shape, (System.nanoTime() - t0) / 1_000_000, shape.apps() * shape.clusters());
        ViewBoard board = new ViewBoard();
        board.publish(view);
        Path profile = Files.createTempDirectory("windlass-bench-chromium-");
        try (DashboardServer server = new DashboardServer(new InetSocketAddress("127.0.0.1", 0), new Dashboard(board, null, GitLinks.NONE)).start()) {
            String base = "http://127.0.0.1:" + server.port();
            int lastPage = (shape.apps() + 49) / 50;
            List<String> pages = List.of("/", "/?page=" + lastPage, "/?problem=OutOfSync");
            Map<String, List<Long>> server_ = new TreeMap<>();
            Map<String, List<Long>> browser = new TreeMap<>();
            HttpClient http = HttpClient.newHttpClient();
            ChromeDriver driver = chromium(profile);
            try {
                long cold = load(driver, base + "/");
                out.printf("first load of the fleet page (templates compiled on first use): %d ms in the browser%n", cold);
                for (int run = 0; run < runs; run++) {
                    for (String page : pages) {
                        long s = System.nanoTime();
                        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(base + page)).build(), HttpResponse.BodyHandlers.ofString());
                        if (r.statusCode() != 200) throw new IllegalStateException(page + " answered " + r.statusCode());
                        server_.computeIfAbsent(page, k -> new ArrayList<>()).add((System.nanoTime() - s) / 1_000_000);
                        browser.computeIfAbsent(page, k -> new ArrayList<>()).add(load(driver, base + page));
                    }
                }
                driver.get(base + "/");
                Object cells = ((JavascriptExecutor) driver).executeScript("return document.querySelectorAll('td.cell').length;");
                out.printf("fleet page 1 holds %s cells%n", cells);
            } finally {
                driver.quit();
                delete(profile);
            }
            boolean met = true;
            out.printf("%-24s %28s %34s%n", "page", "server ms (median min max)", "browser load ms (median min max)");
            for (String page : pages) {
                List<Long> s = server_.get(page), b = browser.get(page);
                out.printf("%-24s %10d %8d %8d %14d %8d %8d%n", page, median(s), min(s), max(s), median(b), min(b), max(b));
                met &= max(b) < GOAL.toMillis();
            }
            out.printf("goal: every fleet page loads in the browser in under %d s: %s%n", GOAL.toSeconds(), met ? "met" : "NOT met");
        }
    }

    /** Navigation start to the end of the load event, as the browser measured it. */
    private static long load(ChromeDriver driver, String url) {
        driver.get(url);
        Object ms = ((JavascriptExecutor) driver).executeScript(
                "const n = performance.getEntriesByType('navigation')[0]; return Math.round(n.loadEventEnd - n.startTime);");
        return ((Number) ms).longValue();
    }

    private static ChromeDriver chromium(Path profile) {
        if (!Files.isExecutable(Path.of(CHROMIUM)) || !Files.isExecutable(Path.of(DRIVER))) {
            throw new IllegalStateException(CHROMIUM + " or " + DRIVER + " is missing: run scripts/browser-test-env.sh first");
        }
        ChromeOptions options = new ChromeOptions();
        options.setBinary(CHROMIUM);
        options.addArguments("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage",
                "--user-data-dir=" + profile, "--window-size=1400,1000");
        return new ChromeDriver(new ChromeDriverService.Builder().usingDriverExecutable(Path.of(DRIVER).toFile()).usingAnyFreePort().build(), options);
    }

    /** What the engine would publish after a pass over this fleet, every application applied everywhere. */
    FleetView view() {
        SyntheticRepo repo = new SyntheticRepo(shape, name -> "{sandbox: {nodes: 1}}");
        DesiredState desired = RepoParser.parse(new MapSnapshot("b".repeat(40), repo.files()));
        Instant now = Instant.now();
        List<String> clusters = List.copyOf(desired.clusters().keySet());
        Map<String, AppStatus> apps = new TreeMap<>();
        List<HeldAction> held = new ArrayList<>();
        int n = 0;
        for (Application a : desired.apps().values()) {
            List<InventoryEntry> inventory = a.manifests().stream().map(InventoryEntry::of).toList();
            List<TargetStatus> targets = new ArrayList<>();
            for (String c : clusters) {
                n++;
                boolean out = n % 17 == 0, degraded = n % 29 == 0;
                targets.add(new TargetStatus(c, a.revision(), out ? Sync.OutOfSync : Sync.Synced, degraded ? Health.Degraded : Health.Healthy,
                        degraded ? "Deployment " + a.name() + ": 0 of 1 replicas available" : "", out ? List.of("spec.replicas") : List.of(), inventory));
            }
            apps.put(a.name(), new AppStatus(a.name(), "apps/" + a.name() + "/app.yaml", a.revision(), desired.commit(), true, List.of(), clusters,
                    targets, List.of()));
            if (apps.size() % 31 == 0) {
                Manifest m = a.manifests().get(0);
                held.add(new HeldAction(new Action(a.name(), clusters.get(clusters.size() - 1), m.ref(), m.apiVersion(), Operation.Update, new ActionReason.ChangedInGit(),
                        List.of(), m, null, false), new dev.windlass.policy.plan.HoldReason.AwaitsWave("bench", 2, List.of(clusters.get(0)))));
            }
        }
        Map<String, ClusterStatus> statuses = new TreeMap<>();
        for (String c : clusters) statuses.put(c, new ClusterStatus(c, "clusters/" + c + ".yaml", dev.windlass.policy.state.Reachability.Reachable, "", "ServerSide", 1, 1, List.of(),
                dev.windlass.policy.state.ClusterState.Healthy, null, now));
        Plan plan = new Plan(desired.commit(), List.of(), held, List.of(), List.of(), "bench", Map.of(), false);
        return new FleetView(now, "main", desired.commit(), EngineState.of(desired.commit(), apps, statuses), desired, plan, new TreeMap<>());
    }

    private static long median(List<Long> xs) {
        List<Long> s = xs.stream().sorted().toList();
        return s.get(s.size() / 2);
    }

    private static long min(List<Long> xs) { return xs.stream().mapToLong(Long::longValue).min().orElse(0); }

    private static long max(List<Long> xs) { return xs.stream().mapToLong(Long::longValue).max().orElse(0); }

    private static void delete(Path dir) throws java.io.IOException {
        try (var all = Files.walk(dir)) {
            for (Path p : all.sorted(java.util.Comparator.reverseOrder()).toList()) Files.deleteIfExists(p);
        }
    }
}
