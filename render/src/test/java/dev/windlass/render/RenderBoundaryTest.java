package dev.windlass.render;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.windlass.policy.source.MapSnapshot;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** What a render may not do: run long, print too much, read outside the repo, fetch remote bases unasked; and what it costs. */
class RenderBoundaryTest {
    private static final RenderRequest.Kustomize OVERLAY = new RenderRequest.Kustomize("deploy/overlays/dev", false);

    @Test
    void aRenderPastItsTimeLimitFailsThatRenderOnly() {
        Renderer slow = new Renderer(Fixtures.tools(), new RenderLimits(1, Duration.ofMillis(1), 64 << 20));
        RenderResult.Failed f = failed(slow.render(Fixtures.repo("podinfo-repo"), OVERLAY));
        assertEquals("deploy/overlays/dev/kustomization.yaml", f.at());
        assertTrue(f.message().contains("did not finish within 1 ms"), f.message());
    }

    @Test
    void aRenderThatPrintsTooMuchFails() {
        Renderer small = new Renderer(Fixtures.tools(), new RenderLimits(1, Duration.ofSeconds(60), 1000));
        RenderResult.Failed f = failed(small.render(Fixtures.repo("podinfo-repo"), OVERLAY));
        assertTrue(f.message().contains("wrote more than 1000 bytes"), f.message());
    }

    @Test
    void whatKustomizeRefusesIsSaidWithItsWordsAndNoTemporaryPaths() {
        MapSnapshot repo = MapSnapshot.ofStrings("c", Map.of("apps/web/kustomization.yaml", "resources: [deployment.yaml]\n"));
        RenderResult.Failed f = failed(renderer().render(repo, new RenderRequest.Kustomize("apps/web", false)));
        assertEquals("apps/web/kustomization.yaml", f.at());
        assertTrue(f.message().contains("deployment.yaml"), f.message());
        assertFalse(f.message().contains("windlass-render-"), "no temporary directory in: " + f.message());
    }

    @Test
    void aChartTemplateErrorPointsAtTheTemplateAndLine() {
        MapSnapshot repo = MapSnapshot.ofStrings("c", Map.of(
                "charts/web/Chart.yaml", "apiVersion: v2\nname: web\nversion: 0.1.0\n",
                "charts/web/templates/cm.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: web\ndata:\n  a: {{ .Values.missing.key }}\n"));
        RenderResult.Failed f = failed(renderer().render(repo, RealWorldRenderTest.helm("web", "charts/web", "web", List.of())));
        assertTrue(f.at().startsWith("charts/web/templates/cm.yaml:6:"), "at the file of the repo: " + f.at());
        assertTrue(f.message().contains("nil pointer evaluating interface {}.key"), f.message());
    }

    @Test
    void aPathOutOfTheRepoIsRefusedBeforeAnyToolRuns() {
        MapSnapshot repo = MapSnapshot.ofStrings("c", Map.of("apps/web/kustomization.yaml", "resources:\n- ../../../etc\n"));
        Renderer r = renderer();
        RenderResult.Failed f = failed(r.render(repo, new RenderRequest.Kustomize("apps/web", false)));
        assertEquals("apps/web/kustomization.yaml:2:3: ../../../etc leads out of the repo; a kustomization may only name files and folders in it",
                f.message());
        assertEquals("apps/web/kustomization.yaml:2:3", f.at());
        assertEquals(0, r.toolRuns());
    }

    @Test
    void aRemoteBaseIsRefusedUnlessTheEngineAndSettingsAllowIt() {
        MapSnapshot repo = MapSnapshot.ofStrings("c", Map.of("apps/web/kustomization.yaml",
                "resources:\n- https://github.com/example/app//deploy?ref=v1.0.0\n"));
        Renderer r = renderer();
        String refused = "apps/web/kustomization.yaml:2:3: remote base https://github.com/example/app//deploy?ref=v1.0.0 is not allowed:"
                + " remote sources need the engine's --render-allow=remote-bases and Settings spec.render.allowRemoteBases: true";
        assertEquals(refused, failed(r.render(repo, new RenderRequest.Kustomize("apps/web", false))).message());
        assertEquals(refused, failed(r.render(repo, new RenderRequest.Kustomize("apps/web", true))).message(),
                "the repo's Settings alone do not allow it: only the engine's flag widens what a render reaches");
        assertEquals(0, r.toolRuns());
    }

    @Test
    void rendersAreCachedByTheFilesTheyReach() {
        Renderer r = renderer();
        MapSnapshot repo = Fixtures.repo("podinfo-repo");
        assertInstanceOf(RenderResult.Rendered.class, r.render(repo, OVERLAY));
        assertInstanceOf(RenderResult.Rendered.class, r.render(repo, OVERLAY));
        assertEquals(1, r.toolRuns(), "the same files: no second run");

        assertInstanceOf(RenderResult.Rendered.class, r.render(changed(repo, "charts/podinfo/values.yaml", "# not reached\n"), OVERLAY));
        assertEquals(1, r.toolRuns(), "a file the overlay does not reach changed: still no run");

        RenderResult after = r.render(changed(repo, "deploy/bases/backend/deployment.yaml", "# reached through ../../bases\n"), OVERLAY);
        assertInstanceOf(RenderResult.Rendered.class, after);
        assertEquals(2, r.toolRuns(), "a file of its base changed: rendered again");
    }

    static MapSnapshot changed(MapSnapshot repo, String path, String appended) {
        Map<String, byte[]> files = new TreeMap<>();
        repo.files().keySet().forEach(p -> files.put(p, repo.read(p)));
        files.put(path, (new String(repo.read(path), StandardCharsets.UTF_8) + appended).getBytes(StandardCharsets.UTF_8));
        return new MapSnapshot("d", files);
    }

    private static Renderer renderer() {
        return new Renderer(Fixtures.tools(), RenderLimits.DEFAULT);
    }

    private static RenderResult.Failed failed(RenderResult result) {
        return assertInstanceOf(RenderResult.Failed.class, result, () -> "rendered: " + result);
    }
}
