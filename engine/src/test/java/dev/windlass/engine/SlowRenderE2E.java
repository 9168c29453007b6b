package dev.windlass.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.windlass.engine.reconcile.PassReport;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A chart whose template loops for minutes, beside a plain application: the pass goes on once the render has run for
 * 10 s, applies the plain application, and holds the slow one with that said; the next pass does not start the render
 * again while it runs. Before, the pass waited for the render, and so did every application.
 */
class SlowRenderE2E {
    @TempDir Path dir;

    @Test
    void aPassGoesOnWithoutARenderThatRunsLongAndAppliesTheApplicationBesideIt() throws Exception {
        try (TestFleet fleet = new TestFleet(dir)) {
            // The cluster answers first: charts then render for its own version, the same request on every pass after.
            fleet.push("a cluster", c -> c.write("clusters/eu-1.yaml", fleet.clusterYaml("eu-1", "env: prod", 1, 0, "")));
            fleet.pass();
            fleet.push("a chart that loops, and a plain app", c -> c
                    .write("apps/slow/app.yaml", """
                            apiVersion: windlass.dev/v1alpha1
                            kind: Application
                            metadata: {name: slow}
                            spec:
                              namespace: slow
                              placement: {clusterNames: [eu-1]}
                              source: {helm: {chart: charts/slow}}
                            """)
                    .write("charts/slow/Chart.yaml", "apiVersion: v2\nname: slow\nversion: 0.1.0\n")
                    .write("charts/slow/templates/cm.yaml", """
                            {{- range $i := until 100000 }}{{- range $j := until 100000 }}{{- end }}{{- end }}
                            apiVersion: v1
                            kind: ConfigMap
                            metadata: {name: slow}
                            """)
                    .write("apps/web/app.yaml", HostileYamlE2E.app("web"))
                    .write("apps/web/manifests/cm.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: web}\ndata: {a: b}\n"));

            PassReport first = fleet.pass();
            assertTrue(first.desired().apps().get("web").valid());
            try (KubernetesClient k = fleet.client("eu-1")) {
                assertNotNull(k.configMaps().inNamespace("web").withName("web").get(), "the plain application is applied in the same pass");
                assertEquals(null, k.configMaps().inNamespace("slow").withName("slow").get());
            }
            assertFalse(first.desired().apps().get("slow").valid(), "the slow one is held");
            List<String> said = first.desired().diagnostics().stream().map(Object::toString).toList();
            assertEquals(List.of("charts/slow/Chart.yaml:1:1: application slow does not render for eu-1 (variant default): still rendering: its"
                    + " render has run for 10 s or more, so this pass went on without it; the application is held, as it was, until a later"
                    + " pass finds the render done (a render is stopped at 60 s)"), said);
            assertEquals(1, first.renders(), "one render started");

            PassReport second = fleet.pass();
            assertFalse(second.desired().apps().get("slow").valid());
            assertEquals(0, second.renders(), "the render still running is not started again");
        }
    }
}
