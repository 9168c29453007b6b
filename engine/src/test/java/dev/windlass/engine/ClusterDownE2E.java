package dev.windlass.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.windlass.engine.reconcile.PassReport;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** One cluster's trouble stays its own: a dead or slow cluster never stops the others from reconciling. */
class ClusterDownE2E {
    static final Path EXAMPLES = Path.of("..", "examples-repo");

    @TempDir Path dir;

    @Test
    void aDeadClusterIsReportedAndTheOthersReconcile() throws Exception {
        try (TestFleet fleet = new TestFleet(dir)) {
            fleet.push("add the fleet", TestFleet.folder(EXAMPLES, ""));
            fleet.settle();
            fleet.cluster("us-1").down(true);
            fleet.push("web 1.5.0", c -> c.write("apps/web/manifests/deployment.yaml",
                    ReconcileLoopE2E.read(EXAMPLES.resolve("apps/web/manifests/deployment.yaml")).replace("web:1.4.2", "web:1.5.0")));
            Instant start = Instant.now();
            PassReport r = fleet.pass();
            assertTrue(Duration.between(start, Instant.now()).toSeconds() < 20, "a dead cluster fails fast");
            for (String c : new String[] {"eu-1", "eu-2"}) {
                try (KubernetesClient k = fleet.cluster(c).newClient()) {
                    assertEquals("ghcr.io/example/web:1.5.0", ReconcileLoopE2E.image(k, "web", "web"), c);
                }
            }
            String clusterStatus = fleet.statusFile("status/clusters/us-1.yaml");
            assertTrue(clusterStatus.contains("reachability: Unreachable"), clusterStatus);
            String web = fleet.statusFile("status/apps/web.yaml");
            assertTrue(web.contains("cluster unreachable"), web);
            assertTrue(fleet.statusLog().get(0).getFullMessage().contains("cluster us-1 unreachable"), fleet.statusLog().get(0).getFullMessage());
            assertTrue(r.plan().stages().stream().flatMap(s -> s.actions().stream()).noneMatch(a -> a.cluster().equals("us-1")));

            fleet.cluster("us-1").down(false);
            fleet.settle();
            try (KubernetesClient k = fleet.cluster("us-1").newClient()) {
                assertEquals("ghcr.io/example/web:1.5.0", ReconcileLoopE2E.image(k, "web", "web"), "caught up once back");
            }
        }
    }
}
