package dev.windlass.engine;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link RenderScenario} on the sandbox. */
class RenderE2E {
    @TempDir Path dir;

    @Test
    void podinfoKustomize() throws Exception {
        try (TestFleet fleet = new TestFleet(dir)) {
            RenderScenario.renderedSetAppliesAndThenWritesNothing(fleet, "podinfo", "podinfo-repo", "path: src/podinfo/kustomize");
        }
    }

    @Test
    void microservicesDemoBaseWithComponents() throws Exception {
        try (TestFleet fleet = new TestFleet(dir)) {
            RenderScenario.renderedSetAppliesAndThenWritesNothing(fleet, "boutique", "microservices-demo",
                    "path: src/boutique/kustomize/tests/memorystore-with-all-components");
        }
    }

    @Test
    void microservicesDemoChart() throws Exception {
        try (TestFleet fleet = new TestFleet(dir)) {
            RenderScenario.renderedSetAppliesAndThenWritesNothing(fleet, "boutique", "microservices-demo",
                    "helm: {chart: src/boutique/helm-chart}");
        }
    }

    @Test
    void variantsRenderPerCluster() throws Exception {
        try (TestFleet fleet = new TestFleet(dir)) {
            RenderScenario.variantsRenderPerCluster(fleet);
        }
    }

    @Test
    void aChangeRollsOutWhereItRendersDifferently() throws Exception {
        try (TestFleet fleet = new TestFleet(dir)) {
            RenderScenario.aChangeRollsOutWhereItRendersDifferently(fleet);
        }
    }

    @Test
    void aFailedRenderHoldsItsApplicationOnly() throws Exception {
        try (TestFleet fleet = new TestFleet(dir)) {
            RenderScenario.aFailedRenderHoldsItsApplicationOnly(fleet);
        }
    }

    @org.junit.jupiter.api.Test
    void chartsRenderForTheClustersOwnVersion() throws Exception {
        try (TestFleet fleet = new TestFleet(dir)) {
            RenderScenario.chartsRenderForTheClustersOwnVersion(fleet);
        }
    }
}
