package dev.windlass.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.windlass.engine.reconcile.PassReport;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * An alias bomb under the alias limit and a recursive alias, each in its own application: the pass completes, records
 * its status and applies the application beside them; each is an error at its place for its own application.
 */
class HostileYamlE2E {
    @TempDir Path dir;

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void aPassCompletesBesideAnAliasBombAndARecursiveAlias() throws Exception {
        // 24 levels of two aliases each: 48 aliases, under the 50 allowed, standing for 2^26 nodes.
        StringBuilder bomb = new StringBuilder("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: bomb}\ndata:\n  l0: &l0 [x, x]\n");
        for (int i = 1; i <= 24; i++) bomb.append("  l").append(i).append(": &l").append(i).append(" [*l").append(i - 1).append(", *l").append(i - 1).append("]\n");
        try (TestFleet fleet = new TestFleet(dir)) {
            fleet.push("two hostile files and a healthy app", c -> c
                    .write("clusters/eu-1.yaml", fleet.clusterYaml("eu-1", "env: prod", 1, 0, ""))
                    .write("apps/bomb/app.yaml", app("bomb")).write("apps/bomb/manifests/cm.yaml", bomb.toString())
                    .write("apps/loop/app.yaml", app("loop"))
                    .write("apps/loop/manifests/cm.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: loop}\ndata: &r {self: *r}\n")
                    .write("apps/web/app.yaml", app("web"))
                    .write("apps/web/manifests/cm.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: web}\ndata: {a: b}\n"));
            PassReport pass = fleet.pass();
            assertEquals(List.of(
                    "apps/bomb/manifests/cm.yaml:20:20: alias *l14 brings this file past 250000 nodes, aliases written out; use fewer aliases of large values",
                    "apps/loop/manifests/cm.yaml:4:17: alias *r is used inside the value it names (a recursive alias); a Kubernetes object cannot contain "
                            + "itself, so write the value out"),
                    pass.desired().diagnostics().stream().map(Object::toString).toList());
            assertFalse(pass.desired().apps().get("bomb").valid());
            assertFalse(pass.desired().apps().get("loop").valid());
            assertTrue(pass.committed(), "the pass records its status");
            try (KubernetesClient k = fleet.client("eu-1")) {
                assertNotNull(k.configMaps().inNamespace("web").withName("web").get(), "the healthy application is applied");
            }
        }
    }

    static String app(String name) {
        return "apiVersion: windlass.dev/v1alpha1\nkind: Application\nmetadata: {name: " + name + "}\nspec:\n  namespace: " + name
                + "\n  placement: {clusterNames: [eu-1]}\n";
    }
}
