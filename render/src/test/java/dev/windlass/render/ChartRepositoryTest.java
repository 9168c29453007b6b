package dev.windlass.render;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import dev.windlass.policy.source.MapSnapshot;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A chart fetched from an HTTP chart repository: a real one, packaged and indexed by the pinned helm itself
 * ({@code helm package}, {@code helm repo index}) and served on loopback, so nothing reaches the internet.
 */
class ChartRepositoryTest {
    @TempDir Path served;
    private HttpServer server;
    private String url;
    private final AtomicInteger requests = new AtomicInteger();
    private final AtomicBoolean down = new AtomicBoolean();

    @BeforeEach
    void serveAChartRepository() throws Exception {
        RenderTools tools = Fixtures.tools();
        run(tools.helm().toString(), "package", Fixtures.REAL_WORLD.resolve("podinfo-repo/charts/podinfo").toAbsolutePath().toString(),
                "--destination", served.toString());
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", exchange -> {
            requests.incrementAndGet();
            if (down.get()) {
                exchange.sendResponseHeaders(503, -1);
                exchange.close();
                return;
            }
            Path file = served.resolve(exchange.getRequestURI().getPath().substring(1)).normalize();
            byte[] body = file.startsWith(served) && Files.isRegularFile(file) ? Files.readAllBytes(file) : null;
            exchange.sendResponseHeaders(body == null ? 404 : 200, body == null ? -1 : body.length);
            if (body != null) exchange.getResponseBody().write(body);
            exchange.close();
        });
        server.start();
        url = "http://127.0.0.1:" + server.getAddress().getPort();
        run(tools.helm().toString(), "repo", "index", served.toString(), "--url", url);
    }

    @AfterEach
    void stop() {
        if (server != null) server.stop(0);
    }

    @Test
    void aChartFromARepositoryRendersAsTheSameChartInGit() {
        Renderer renderer = new Renderer(Fixtures.tools(), RenderLimits.DEFAULT, Fixtures.PRIVATE_HOSTS);
        RenderResult result = renderer.render(MapSnapshot.ofStrings("c", Map.of()), new RenderRequest.Helm(
                new RenderRequest.Chart.Repository(url, "podinfo", "6.14.1"), "podinfo", "podinfo", List.of(), false,
                RenderRequest.DEFAULT_KUBE_VERSION, List.of()));
        assertInstanceOf(RenderResult.Rendered.class, result, result::toString);
        assertEquals(Fixtures.golden("podinfo-chart"), ((RenderResult.Rendered) result).yaml());
    }

    @Test
    void aVersionTheRepositoryDoesNotHaveFailsWithHelmsWords() {
        Renderer renderer = new Renderer(Fixtures.tools(), RenderLimits.DEFAULT, Fixtures.PRIVATE_HOSTS);
        RenderResult result = renderer.render(MapSnapshot.ofStrings("c", Map.of()), new RenderRequest.Helm(
                new RenderRequest.Chart.Repository(url, "podinfo", "9.9.9"), "podinfo", "podinfo", List.of(), false,
                RenderRequest.DEFAULT_KUBE_VERSION, List.of()));
        RenderResult.Failed f = assertInstanceOf(RenderResult.Failed.class, result);
        assertEquals(url + " podinfo 9.9.9", f.at());
        assertTrue(f.message().contains("podinfo-9.9.9") || f.message().contains("9.9.9"), f.message());
    }

    @Test
    void aRepositoryOnALoopbackAddressIsNeverAskedUnlessTheEngineAllowsPrivateHosts() {
        Renderer renderer = new Renderer(Fixtures.tools(), RenderLimits.DEFAULT);
        RenderResult result = renderer.render(MapSnapshot.ofStrings("c", Map.of()), podinfo("6.14.1"));
        RenderResult.Failed f = assertInstanceOf(RenderResult.Failed.class, result);
        assertEquals(url + " is on 127.0.0.1, a loopback, link-local or private address: the engine fetches from those only when started"
                + " with --render-allow=private-hosts", f.message());
        assertEquals(0, renderer.toolRuns(), "no tool ran");
        assertEquals(0, requests.get(), "the repository was never asked");
    }

    @Test
    void aRenderThatFailedWhileTheRepositoryWasDownIsTriedAgainAfterABackoffAndThenRenders() throws Exception {
        Renderer renderer = new Renderer(Fixtures.tools(), RenderLimits.DEFAULT, Fixtures.PRIVATE_HOSTS, java.time.Duration.ofMillis(300));
        MapSnapshot repo = MapSnapshot.ofStrings("c", Map.of());
        down.set(true);
        RenderResult.Failed f = assertInstanceOf(RenderResult.Failed.class, renderer.render(repo, podinfo("6.14.1")));
        assertTrue(f.message().contains("503"), f.message());
        assertEquals(1, renderer.toolRuns());
        assertInstanceOf(RenderResult.Failed.class, renderer.render(repo, podinfo("6.14.1")));
        assertEquals(1, renderer.toolRuns(), "within the backoff the failure stands: the repository is not asked again at once");

        down.set(false);
        RenderResult after = renderer.render(repo, podinfo("6.14.1"));
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (after instanceof RenderResult.Failed && System.nanoTime() < deadline) {
            Thread.sleep(100);
            after = renderer.render(repo, podinfo("6.14.1"));
        }
        assertInstanceOf(RenderResult.Rendered.class, after, after::toString);
        assertEquals(2, renderer.toolRuns(), "tried again once the backoff was over, and then rendered");
        assertInstanceOf(RenderResult.Rendered.class, renderer.render(repo, podinfo("6.14.1")));
        assertEquals(2, renderer.toolRuns(), "a render that succeeded is cached as before");
        assertFalse(renderer.render(repo, podinfo("6.14.1")) instanceof RenderResult.Failed);
    }

    private RenderRequest.Helm podinfo(String version) {
        return new RenderRequest.Helm(new RenderRequest.Chart.Repository(url, "podinfo", version), "podinfo", "podinfo", List.of(), false,
                RenderRequest.DEFAULT_KUBE_VERSION, List.of());
    }

    private static void run(String... command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        if (p.waitFor() != 0) throw new IllegalStateException(String.join(" ", command) + " failed: " + out);
    }
}
