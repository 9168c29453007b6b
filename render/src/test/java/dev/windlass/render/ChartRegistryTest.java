package dev.windlass.render;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.windlass.policy.source.MapSnapshot;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A chart pulled from an OCI registry: a real registry (go-containerregistry's, in memory, built pinned by
 * {@code scripts/render-tools.sh}) on loopback, the chart packaged and pushed by the pinned helm itself. Nothing
 * reaches the internet.
 */
class ChartRegistryTest {
    private static final Pattern SERVING = Pattern.compile("serving on port (\\d+)");

    @TempDir Path work;
    private Process registry;
    private String reference;
    private String port;

    @BeforeEach
    void pushAChartToARegistry() throws Exception {
        RenderTools tools = Fixtures.tools();
        Path binary = tools.helm().resolveSibling("registry");
        assertTrue(Files.isExecutable(binary), binary + " is missing: run scripts/render-tools.sh");
        registry = new ProcessBuilder(binary.toString(), "-port", "0").redirectErrorStream(true).start();
        // The registry says its port once it listens: reading that line is waiting for it to be ready.
        BufferedReader out = new BufferedReader(new InputStreamReader(registry.getInputStream(), StandardCharsets.UTF_8));
        port = null;
        for (String line = out.readLine(); line != null && port == null; line = port == null ? out.readLine() : null) {
            Matcher m = SERVING.matcher(line);
            if (m.find()) port = m.group(1);
        }
        if (port == null) throw new IllegalStateException("the registry ended without listening");
        Thread drain = new Thread(() -> out.lines().forEach(l -> { }), "registry-log");
        drain.setDaemon(true);
        drain.start();

        run(tools.helm().toString(), "package", Fixtures.REAL_WORLD.resolve("podinfo-repo/charts/podinfo").toAbsolutePath().toString(),
                "--destination", work.toString());
        Path chart;
        try (var files = Files.list(work)) {
            chart = files.filter(f -> f.getFileName().toString().endsWith(".tgz")).findFirst().orElseThrow();
        }
        run(tools.helm().toString(), "push", chart.toString(), "oci://127.0.0.1:" + port + "/charts", "--plain-http");
        reference = "oci://127.0.0.1:" + port + "/charts/podinfo";
    }

    @AfterEach
    void stop() {
        if (registry != null) registry.destroyForcibly();
    }

    @Test
    void aChartFromARegistryRendersAsTheSameChartInGit() {
        Renderer renderer = new Renderer(Fixtures.tools(), RenderLimits.DEFAULT, Fixtures.PRIVATE_HOSTS);
        RenderResult result = renderer.render(MapSnapshot.ofStrings("c", Map.of()), new RenderRequest.Helm(
                new RenderRequest.Chart.Oci(reference, "6.14.1"), "podinfo", "podinfo", List.of(), false,
                RenderRequest.DEFAULT_KUBE_VERSION, List.of()));
        assertInstanceOf(RenderResult.Rendered.class, result, result::toString);
        assertEquals(Fixtures.golden("podinfo-chart"), ((RenderResult.Rendered) result).yaml());
    }

    @Test
    void aTagTheRegistryDoesNotHaveFailsWithHelmsWords() {
        Renderer renderer = new Renderer(Fixtures.tools(), RenderLimits.DEFAULT, Fixtures.PRIVATE_HOSTS);
        RenderResult result = renderer.render(MapSnapshot.ofStrings("c", Map.of()), new RenderRequest.Helm(
                new RenderRequest.Chart.Oci(reference, "9.9.9"), "podinfo", "podinfo", List.of(), false,
                RenderRequest.DEFAULT_KUBE_VERSION, List.of()));
        RenderResult.Failed f = assertInstanceOf(RenderResult.Failed.class, result);
        assertEquals(reference + " 9.9.9", f.at());
        assertTrue(f.message().contains("9.9.9"), f.message());
    }

    /**
     * The engine's --chart-mirror: the repo names the registry the chart is published in; the engine fetches it from
     * its mirror, here on loopback over plain HTTP, without --render-allow=private-hosts. The range picks the newest
     * tag in it, which starts with v (as cert-manager's do, which Helm alone reads as no version).
     */
    @Test
    void aMirrorServesTheRegistryTheRepoNamesAndARangePicksATagThatStartsWithV() throws Exception {
        RenderTools tools = Fixtures.tools();
        Path v = Files.createDirectories(work.resolve("v"));
        run(tools.helm().toString(), "package", Fixtures.REAL_WORLD.resolve("podinfo-repo/charts/podinfo").toAbsolutePath().toString(),
                "--version", "v6.15.0", "--destination", v.toString());
        run(tools.helm().toString(), "push", v.resolve("podinfo-v6.15.0.tgz").toString(), "oci://127.0.0.1:" + port + "/charts", "--plain-http");
        List<String> problems = new java.util.ArrayList<>();
        ChartMirrors mirrors = ChartMirrors.parse("oci://ghcr.io/stefanprodan/charts=http://127.0.0.1:" + port + "/charts", problems);
        assertEquals(List.of(), problems);
        Renderer mirrored = new Renderer(tools, RenderLimits.DEFAULT, new RenderAccess(RenderSandbox.Mode.REQUIRED, false, false, mirrors));

        RenderResult result = mirrored.render(MapSnapshot.ofStrings("c", Map.of()), new RenderRequest.Helm(
                new RenderRequest.Chart.Oci("oci://ghcr.io/stefanprodan/charts/podinfo", "6.x"), "podinfo", "podinfo", List.of(), false,
                RenderRequest.DEFAULT_KUBE_VERSION, List.of()));
        RenderResult.Rendered ok = assertInstanceOf(RenderResult.Rendered.class, result, result::toString);
        assertTrue(ok.yaml().contains("helm.sh/chart: podinfo-v6.15.0"), ok.yaml());

        RenderResult none = mirrored.render(MapSnapshot.ofStrings("c", Map.of()), new RenderRequest.Helm(
                new RenderRequest.Chart.Oci("oci://ghcr.io/stefanprodan/charts/podinfo", "7.x"), "podinfo", "podinfo", List.of(), false,
                RenderRequest.DEFAULT_KUBE_VERSION, List.of()));
        RenderResult.Failed f = assertInstanceOf(RenderResult.Failed.class, none);
        assertEquals("no tag of oci://ghcr.io/stefanprodan/charts/podinfo is a version in the range 7.x; its tags include 6.14.1, v6.15.0",
                f.message());

        RenderResult direct = mirrored.render(MapSnapshot.ofStrings("c", Map.of()), new RenderRequest.Helm(
                new RenderRequest.Chart.Oci(reference, "6.x"), "podinfo", "podinfo", List.of(), false, RenderRequest.DEFAULT_KUBE_VERSION, List.of()));
        RenderResult.Failed refused = assertInstanceOf(RenderResult.Failed.class, direct);
        assertTrue(refused.message().contains("--render-allow=private-hosts"), "a mirror widens nothing else: " + refused.message());
    }

    /** helm with a home of its own: registry logins and caches stay in the test's directory. */
    private void run(String... command) throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
        pb.environment().put("HOME", work.resolve("home").toString());
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (p.waitFor() != 0) throw new IllegalStateException(String.join(" ", command) + " failed: " + out);
    }
}
