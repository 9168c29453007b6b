package dev.windlass.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.windlass.engine.cli.Main;
import dev.windlass.kubetest.KubeCluster;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The review of a branch ({@code windlass plan --base main --head <branch>}) asks a real control plane to dry-run the
 * merge's actions: the server's own validation errors show in the review, and nothing is created or changed.
 */
class ReviewDryRunIT {
    static final String BROKEN_DEPLOYMENT = """
            apiVersion: apps/v1
            kind: Deployment
            metadata: {name: shop}
            spec:
              selector: {matchLabels: {app: shop}}
              template:
                metadata: {labels: {app: other}}
                spec: {containers: [{name: shop, image: "shop:1"}]}
            """;

    /**
     * One server per test: objects another test's engine applied carry Windlass's marks for app {@code shop}, and a
     * review would rightly plan to prune them.
     */
    KubeCluster server;

    @TempDir Path dir;

    @BeforeEach void start() { server = KubeCluster.start(1); }

    @AfterEach void stop() { if (server != null) server.close(); }

    record Run(int code, String out, String err) {}

    Run review(TestFleet fleet, String head, String workdir) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.run(new PrintWriter(out, true), new PrintWriter(err, true), "plan", "--repo", fleet.origin.toString(),
                "--workdir", dir.resolve(workdir).toString(), "--kubeconfig-dir", dir.toString(), "--base", "main", "--head", head);
        return new Run(code, out.toString(), err.toString());
    }

    /** Main: cluster {@code lab} on the real server and app {@code shop} with one valid ConfigMap. */
    void pushMain(TestFleet fleet, String namespace) throws Exception {
        Path kubeconfig = server.kubeconfig(dir.resolve("lab.kubeconfig"));
        fleet.push("lab and the shop", c -> c
                .write("clusters/lab.yaml", "apiVersion: windlass.dev/v1alpha1\nkind: Cluster\nmetadata: {name: lab}\n"
                        + "spec: {connection: {kubeconfig: {path: \"" + kubeconfig + "\"}}}\n")
                .write("apps/shop/app.yaml", "apiVersion: windlass.dev/v1alpha1\nkind: Application\nmetadata: {name: shop}\n"
                        + "spec: {namespace: " + namespace + ", placement: {clusterNames: [lab]}}\n")
                .write("apps/shop/manifests/config.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: shop}\ndata: {colour: blue}\n"));
    }

    @Test
    void theServerRefusesTheBranchsDeploymentInTheReviewAndNothingIsCreated() throws Exception {
        try (TestFleet fleet = new TestFleet(dir)) {
            pushMain(fleet, "default");
            fleet.pushTo("feature/broken", "a deployment", c -> c.write("apps/shop/manifests/shop.yaml", BROKEN_DEPLOYMENT));

            Run r = review(fleet, "feature/broken", "cli");
            assertEquals(2, r.code(), r.out() + "\n" + r.err());
            String review = r.out();
            assertTrue(review.startsWith("## Windlass plan: `feature/broken` into `main`\n"), review);
            assertTrue(review.contains("\n### Server dry-run\n"), review);
            assertTrue(review.contains("| ✗ Create | Deployment default/shop | lab |"), review);
            String refusal = review.lines().filter(l -> l.startsWith("| ✗ Create | Deployment default/shop | lab |")).findFirst().orElseThrow();
            assertTrue(refusal.contains("does not match template"), refusal);
            assertFalse(review.contains("| ✗ Create | ConfigMap default/shop"), "the valid ConfigMap is accepted:\n" + review);
            assertFalse(review.contains("### Held"), review);
            assertTrue(review.contains("1 of 2 checked actions accepted by the API servers"), review);
            // The Deployment is new: its diff is all additions.
            assertTrue(review.contains("```diff\n--- /dev/null\n+++ Deployment default/shop on lab (Git)\n"), review);
            assertFalse(r.err().contains("planned from the status branch's record"), "a kubeconfig cluster is observed live:\n" + r.err());

            try (KubernetesClient k = server.newClient()) {
                assertNull(k.apps().deployments().inNamespace("default").withName("shop").get(), "the dry-run created nothing");
                assertNull(k.configMaps().inNamespace("default").withName("shop").get(), "main was never applied, nor created by the review");
            }
        }
    }

    @Test
    void aValidChangeOnTheBranchIsADiffAgainstTheLiveObjectAndIsNotApplied() throws Exception {
        try (TestFleet fleet = new TestFleet(dir)) {
            pushMain(fleet, "review-diff");
            fleet.settle();
            try (KubernetesClient k = server.newClient()) {
                ConfigMap live = k.configMaps().inNamespace("review-diff").withName("shop").get();
                assertNotNull(live, "main is applied");
                assertEquals(Map.of("colour", "blue"), live.getData());
            }

            fleet.pushTo("feature/broken", "green, and a deployment", c -> c
                    .write("apps/shop/manifests/config.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: shop}\ndata: {colour: green}\n")
                    .write("apps/shop/manifests/shop.yaml", BROKEN_DEPLOYMENT));

            Run r = review(fleet, "feature/broken", "cli");
            assertEquals(2, r.code(), r.out() + "\n" + r.err());
            String review = r.out();
            assertTrue(review.startsWith("## Windlass plan: `feature/broken` into `main`\n"), review);
            assertTrue(review.contains("| ~ Update | ConfigMap review-diff/shop | shop |"), review);
            assertTrue(review.contains("```diff\n--- ConfigMap review-diff/shop on lab (live)\n+++ ConfigMap review-diff/shop on lab (Git)\n"), review);
            assertTrue(review.contains("\n-  colour: blue\n+  colour: green\n"), review);
            assertTrue(review.contains("| ✗ Create | Deployment review-diff/shop | lab |"), review);
            assertTrue(review.contains("1 of 2 checked actions accepted by the API servers"), review);
            assertEquals(review, review(fleet, "feature/broken", "cli-again").out(), "the same review from another mirror, byte for byte");

            try (KubernetesClient k = server.newClient()) {
                assertNull(k.apps().deployments().inNamespace("review-diff").withName("shop").get(), "the dry-run created nothing");
                assertEquals(Map.of("colour", "blue"), k.configMaps().inNamespace("review-diff").withName("shop").get().getData(),
                        "the dry-run changed nothing");
            }
        }
    }
}
