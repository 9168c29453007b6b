package dev.windlass.render;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.windlass.policy.source.MapSnapshot;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A source that accepts a connection and never answers: a chart repository for helm, a remote base for kustomize (which
 * runs git, which runs its HTTP helper). The render stops at its time limit, with every process it started killed and
 * its folder deleted, and says so. Before, the pass waited on the tool's output for as long as any of them held it.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)  // a guard against a hang, not a measure of speed
class HungRenderTest {
    private ServerSocket server;
    private final List<Socket> held = new CopyOnWriteArrayList<>();
    private String url;

    @BeforeEach
    void aSourceThatNeverAnswers() throws IOException {
        server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread accept = new Thread(() -> {
            while (!server.isClosed()) {
                try {
                    held.add(server.accept());
                } catch (IOException e) {
                    return;
                }
            }
        }, "never-answers");
        accept.setDaemon(true);
        accept.start();
        url = "http://127.0.0.1:" + server.getLocalPort();
    }

    @AfterEach
    void close() throws IOException {
        server.close();
        for (Socket s : held) s.close();
    }

    @Test
    void aChartRepositoryThatNeverAnswersStopsTheRenderAtItsLimitAndLeavesNothingBehind() throws Exception {
        Renderer renderer = new Renderer(Fixtures.tools(), new RenderLimits(1, Duration.ofSeconds(3), 64 << 20), Fixtures.PRIVATE_HOSTS);
        List<Path> before = renderFolders();
        RenderResult result = renderer.render(MapSnapshot.ofStrings("c", Map.of()), new RenderRequest.Helm(
                new RenderRequest.Chart.Repository(url, "podinfo", "6.14.1"), "podinfo", "podinfo", List.of(), false,
                RenderRequest.DEFAULT_KUBE_VERSION, List.of()));
        RenderResult.Failed f = assertInstanceOf(RenderResult.Failed.class, result);
        assertTrue(f.message().startsWith("helm did not finish within 3 s"), f.message());
        assertTrue(!held.isEmpty(), "helm did reach the repository");
        assertNothingLeft(before);
    }

    @Test
    void aRemoteBaseThatNeverAnswersStopsKustomizeAndTheGitItRanAtTheLimit() throws Exception {
        RenderAccess remote = new RenderAccess(RenderSandbox.Mode.REQUIRED, true, true);
        Renderer renderer = new Renderer(Fixtures.tools(), new RenderLimits(1, Duration.ofSeconds(3), 64 << 20), remote);
        List<Path> before = renderFolders();
        MapSnapshot repo = MapSnapshot.ofStrings("c", Map.of("app/kustomization.yaml", "resources:\n- " + url + "/org/repo.git//deploy?ref=v1\n"));
        RenderResult result = renderer.render(repo, new RenderRequest.Kustomize("app", true));
        RenderResult.Failed f = assertInstanceOf(RenderResult.Failed.class, result);
        assertTrue(f.message().startsWith("kustomize did not finish within 3 s"), f.message());
        assertTrue(!held.isEmpty(), "git did reach the remote");
        assertNothingLeft(before);
    }

    /** No render process of this JVM left, and no render folder but those there before the test. */
    private static void assertNothingLeft(List<Path> before) throws IOException {
        assertEquals(0, LiveRenders.running(), "renders running");
        List<String> left = ProcessHandle.current().descendants().filter(ProcessHandle::isAlive)
                .map(p -> p.info().commandLine().orElse("pid " + p.pid())).toList();
        assertEquals(List.of(), left, "processes this JVM started, still running");
        List<Path> folders = renderFolders();
        folders.removeAll(before);
        assertEquals(List.of(), folders, "render folders left behind");
    }

    private static List<Path> renderFolders() throws IOException {
        try (var list = Files.list(Path.of(System.getProperty("java.io.tmpdir")))) {
            return new java.util.ArrayList<>(list.filter(p -> p.getFileName().toString().startsWith("windlass-render-")).toList());
        }
    }
}
