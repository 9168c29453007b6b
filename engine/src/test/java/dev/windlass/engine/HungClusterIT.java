package dev.windlass.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.windlass.engine.reconcile.PassReport;
import dev.windlass.kubetest.KubeCluster;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One of three real clusters hangs (its API server is stopped with SIGSTOP: it accepts connections and never
 * answers). A change pushed to Git reaches the other two in the next pass, which waits for the hung one only its
 * allowance, and later passes do not wait for it at all; once it answers again, it gets the change too.
 */
class HungClusterIT {
    @TempDir Path dir;

    static String app() {
        return "apiVersion: windlass.dev/v1alpha1\nkind: Application\nmetadata: {name: web}\nspec:\n  namespace: web\n"
                + "  placement: {clusterSelector: {}}\n";
    }

    static String config(String mode) {
        return "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: web}\ndata: {MODE: \"" + mode + "\"}\n";
    }

    static String mode(TestFleet fleet, String cluster) {
        try (KubernetesClient k = fleet.client(cluster)) {
            var cm = k.configMaps().inNamespace("web").withName("web").get();
            return cm == null ? null : cm.getData().get("MODE");
        }
    }

    @Test void aHungClusterDelaysNoOtherAndCatchesUpWhenItAnswers() throws Exception {
        try (TestFleet fleet = new TestFleet(dir, true)) {
            fleet.push("three clusters", c -> c.write("clusters/a.yaml", fleet.clusterYaml("a", "", 1, 0, ""))
                    .write("clusters/b.yaml", fleet.clusterYaml("b", "", 1, 0, ""))
                    .write("clusters/c.yaml", fleet.clusterYaml("c", "", 1, 0, ""))
                    .write("apps/web/app.yaml", app()).write("apps/web/manifests/config.yaml", config("1")));
            fleet.settle();
            KubeCluster c = ((ControlPlanes) fleet.backend).cluster("c");

            c.freeze();
            try {
                fleet.push("mode 2", x -> x.write("apps/web/manifests/config.yaml", config("2")));
                long start = System.nanoTime();
                PassReport hung = fleet.engine.reconciler().reconcile();
                Duration first = Duration.ofNanos(System.nanoTime() - start);
                assertEquals("2", mode(fleet, "a"), "applied to a in the same pass");
                assertEquals("2", mode(fleet, "b"), "applied to b in the same pass");
                var status = fleet.engine.reconciler().state().clusters().get("c");
                assertEquals(dev.windlass.policy.state.Reachability.Unreachable, status.reachability());
                assertTrue(status.message().startsWith("did not answer within "), status.message());
                assertTrue(hung.plan().actions().stream().noneMatch(x -> x.cluster().equals("c")), "nothing planned for the hung cluster");

                start = System.nanoTime();
                fleet.engine.reconciler().reconcile();
                Duration second = Duration.ofNanos(System.nanoTime() - start);
                System.out.println("pass with the hung cluster: first " + first.toMillis() + " ms, next " + second.toMillis() + " ms");
            } finally {
                c.thaw();
            }
            for (int i = 0; i < 30 && !"2".equals(mode(fleet, "c")); i++) fleet.passAfter(Duration.ofSeconds(1));
            assertEquals("2", mode(fleet, "c"), "it catches up once it answers");
            assertEquals(dev.windlass.policy.state.Reachability.Reachable, fleet.engine.reconciler().state().clusters().get("c").reachability());
        }
    }
}
