package dev.windlass.render;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import dev.windlass.policy.source.MapSnapshot;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Real repos rendered by Windlass exactly as the pinned tools render them by hand (the goldens are their own output,
 * written by scripts/render-goldens.sh): Windlass hands the tool the files it reaches and nothing else, and keeps every
 * byte it prints.
 */
class RealWorldRenderTest {
    private final Renderer renderer = new Renderer(Fixtures.tools(), RenderLimits.DEFAULT);

    @Test
    void podinfoKustomizeIsRenderedAsKustomizeRendersIt() {
        assertRendered("podinfo-kustomize", Fixtures.repo("podinfo-repo"), new RenderRequest.Kustomize("kustomize", false));
    }

    @ParameterizedTest
    @ValueSource(strings = {"dev", "staging", "production"})
    void podinfoOverlaysWithParentBasesAndGeneratorsAreRenderedAsKustomizeRendersThem(String overlay) {
        assertRendered("podinfo-overlay-" + overlay, Fixtures.repo("podinfo-repo"),
                new RenderRequest.Kustomize("deploy/overlays/" + overlay, false));
    }

    @Test
    void microservicesDemoBaseWithComponentsAndPatchesIsRenderedAsKustomizeRendersIt() {
        assertRendered("microservices-demo-components", Fixtures.repo("microservices-demo"),
                new RenderRequest.Kustomize("kustomize/tests/memorystore-with-all-components", false));
    }

    @Test
    void podinfoChartIsRenderedAsHelmRendersIt() {
        assertRendered("podinfo-chart", Fixtures.repo("podinfo-repo"), helm("podinfo", "charts/podinfo", "podinfo", List.of()));
    }

    @Test
    void podinfoChartWithAValuesFileIsRenderedAsHelmRendersIt() {
        MapSnapshot repo = Fixtures.repo("podinfo-repo");
        String prod = new String(repo.read("charts/podinfo/values-prod.yaml"), java.nio.charset.StandardCharsets.UTF_8);
        assertRendered("podinfo-chart-prod", repo, helm("podinfo", "charts/podinfo", "podinfo", List.of(prod)));
    }

    @Test
    void microservicesDemoChartIsRenderedAsHelmRendersIt() {
        assertRendered("microservices-demo-chart", Fixtures.repo("microservices-demo"), helm("boutique", "helm-chart", "boutique", List.of()));
    }

    static RenderRequest.Helm helm(String release, String chart, String namespace, List<String> values) {
        return new RenderRequest.Helm(new RenderRequest.Chart.InRepo(chart), release, namespace, values, false,
                RenderRequest.DEFAULT_KUBE_VERSION, List.of());
    }

    private void assertRendered(String golden, MapSnapshot repo, RenderRequest request) {
        RenderResult result = renderer.render(repo, request);
        assertInstanceOf(RenderResult.Rendered.class, result, () -> result.toString());
        assertEquals(Fixtures.golden(golden), ((RenderResult.Rendered) result).yaml());
    }
}
