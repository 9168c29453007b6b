package dev.windlass.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.windlass.engine.cli.Main;
import dev.windlass.kubetest.KubeCluster;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** windlass plan asks a real API server to dry-run the plan: its own validation errors show before anything is applied. */
class PlanDryRunIT {
    @TempDir Path dir;

    @Test
    void theServersValidationErrorIsInThePlanAndNothingIsCreated() throws Exception {
        try (KubeCluster server = KubeCluster.start(1); TestFleet fleet = new TestFleet(dir)) {
            Path kubeconfig = server.kubeconfig(dir.resolve("lab.kubeconfig"));
            fleet.push("a broken deployment", c -> c
                    .write("clusters/lab.yaml", "apiVersion: windlass.dev/v1alpha1\nkind: Cluster\nmetadata: {name: lab}\n"
                            + "spec: {connection: {kubeconfig: {path: \"" + kubeconfig + "\"}}}\n")
                    .write("apps/shop/app.yaml", "apiVersion: windlass.dev/v1alpha1\nkind: Application\nmetadata: {name: shop}\n"
                            + "spec: {namespace: default, placement: {clusterNames: [lab]}}\n")
                    .write("apps/shop/manifests/shop.yaml", """
                            apiVersion: apps/v1
                            kind: Deployment
                            metadata: {name: shop}
                            spec:
                              selector: {matchLabels: {app: shop}}
                              template:
                                metadata: {labels: {app: other}}
                                spec: {containers: [{name: shop, image: "shop:1"}]}
                            """)
                    .write("apps/shop/manifests/config.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: shop}\ndata: {a: b}\n"));
            StringWriter out = new StringWriter();
            StringWriter err = new StringWriter();
            int code = Main.run(new PrintWriter(out, true), new PrintWriter(err, true), "plan", "--repo", fleet.origin.toString(),
                    "--workdir", dir.resolve("cli").toString(), "--kubeconfig-dir", dir.toString(), "--ref", "main");
            assertEquals(2, code, out + "\n" + err);
            String plan = out.toString();
            assertTrue(plan.contains("## Server dry-run"), plan);
            assertTrue(plan.contains("1 of 2 checked actions accepted by the API servers"), plan);
            assertTrue(plan.contains("| ✗ Create | Deployment default/shop | lab |") && plan.contains("`selector` does not match template `labels`"), plan);
            try (KubernetesClient k = server.newClient()) {
                assertNull(k.apps().deployments().inNamespace("default").withName("shop").get(), "nothing created");
                assertNull(k.configMaps().inNamespace("default").withName("shop").get(), "nothing created");
            }
        }
    }
}
