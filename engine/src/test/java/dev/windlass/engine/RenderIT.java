package dev.windlass.engine;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link RenderScenario} on real control planes: what the real kustomize and helm render of real repos is applied with
 * server-side apply, and re-applied with no write the API server counts and no render.
 */
class RenderIT {
    @TempDir Path dir;

    @Test
    void podinfoKustomize() throws Exception {
        run("podinfo", "podinfo-repo", "path: src/podinfo/kustomize");
    }

    @Test
    void podinfoChartWithProductionValues() throws Exception {
        run("podinfo", "podinfo-repo", "helm: {chart: src/podinfo/charts/podinfo, valuesFiles: [src/podinfo/charts/podinfo/values-prod.yaml]}");
    }

    @Test
    void microservicesDemoBaseWithComponents() throws Exception {
        run("boutique", "microservices-demo", "path: src/boutique/kustomize/tests/memorystore-with-all-components");
    }

    @Test
    void microservicesDemoChart() throws Exception {
        run("boutique", "microservices-demo", "helm: {chart: src/boutique/helm-chart}");
    }

    @Test
    void variantsRenderPerCluster() throws Exception {
        try (TestFleet fleet = new TestFleet(dir, true)) {
            RenderScenario.variantsRenderPerCluster(fleet);
        }
    }

    @Test
    void aChangeRollsOutWhereItRendersDifferently() throws Exception {
        try (TestFleet fleet = new TestFleet(dir, true)) {
            RenderScenario.aChangeRollsOutWhereItRendersDifferently(fleet);
        }
    }

    private void run(String name, String fixture, String source) throws Exception {
        try (TestFleet fleet = new TestFleet(dir, true)) {
            RenderScenario.renderedSetAppliesAndThenWritesNothing(fleet, name, fixture, source);
        }
    }

    @org.junit.jupiter.api.Test
    void chartsRenderForTheClustersOwnVersion() throws Exception {
        try (TestFleet fleet = new TestFleet(dir, true)) {
            RenderScenario.chartsRenderForTheClustersOwnVersion(fleet);
        }
    }
}
