package dev.windlass.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.windlass.engine.reconcile.PassReport;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A Settings value out of range is an error at its place, as any bad Settings value is: the pass runs with the default. */
class SettingsOutOfRangeE2E {
    @TempDir Path dir;

    @Test void aPassRunsWithTheDefaultIntervalWhenTheSettingsOneOverflows() throws Exception {
        try (TestFleet fleet = new TestFleet(dir)) {
            fleet.push("an interval too long to hold", c -> c
                    .write("windlass.yaml", "apiVersion: windlass.dev/v1alpha1\nkind: Settings\nmetadata: {name: windlass}\nspec:\n  interval: 99999999999999999999s\n")
                    .write("clusters/eu-1.yaml", fleet.clusterYaml("eu-1", "env: prod", 1, 0, ""))
                    .write("apps/web/app.yaml", "apiVersion: windlass.dev/v1alpha1\nkind: Application\nmetadata: {name: web}\n"
                            + "spec:\n  namespace: web\n  placement: {clusterNames: [eu-1]}\n")
                    .write("apps/web/manifests/cm.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: web}\ndata: {a: b}\n"));
            PassReport pass = fleet.pass();
            assertTrue(pass.desired().diagnostics().stream().anyMatch(d -> d.toString().startsWith(
                    "windlass.yaml:5:13: Settings.spec.interval '99999999999999999999s' is out of range")), pass.desired().diagnostics().toString());
            assertEquals(Duration.ofSeconds(30), pass.desired().settings().interval());
            assertTrue(pass.committed(), "the pass records its status");
            try (KubernetesClient k = fleet.client("eu-1")) {
                assertNotNull(k.configMaps().inNamespace("web").withName("web").get(), "the application is applied");
            }
        }
    }
}
