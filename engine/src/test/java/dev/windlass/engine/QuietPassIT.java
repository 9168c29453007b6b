package dev.windlass.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.windlass.engine.reconcile.PassReport;
import dev.windlass.kubetest.RequestCounts;
import dev.windlass.policy.plan.AtRest;
import dev.windlass.policy.plan.PlanMemo;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A pass with nothing new, on a real control plane: once a whole pass has left the fleet at rest, a pass that finds
 * the same commit, the same recorded status, the same objects in every watch and every cluster ready is skipped. It
 * lists nothing and plans nothing. Anything new makes the next pass whole: a change by hand, a node that stops, a
 * push, and the end of the rest itself.
 */
class QuietPassIT {
    static final String NS = "quiet";
    @TempDir Path dir;

    @Test void passesWithNothingNewAreSkippedAndAnythingNewMakesThePassWhole() throws Exception {
        try (TestFleet fleet = new TestFleet(dir, true)) {
            ControlPlanes planes = (ControlPlanes) fleet.backend;
            fleet.push("an app", c -> c.write("clusters/c1.yaml", fleet.clusterYaml("c1", "", 1, 0, ""))
                    .write("apps/web/app.yaml", app()).write("apps/web/manifests/config.yaml", configMap("git")));
            fleet.settle();
            fleet.passLater();

            long skipped = fleet.engine.reconciler().passesSkipped();
            RequestCounts before = planes.requests("c1");
            for (int i = 1; i <= 3; i++) {
                fleet.clock.advance(Duration.ofSeconds(5));
                PassReport idle = fleet.engine.reconciler().reconcile();
                assertTrue(idle.skipped(), "pass " + i + " skipped");
                assertEquals(PlanMemo.Work.NONE, idle.planning(), "pass " + i + " planned nothing");
                assertFalse(idle.plan().hasChanges() || idle.committed(), idle.plan().toString());
            }
            assertEquals(skipped + 3, fleet.engine.reconciler().passesSkipped());
            RequestCounts idle = planes.requests("c1").since(before);
            assertEquals(0, idle.count("LIST", "configmaps") + idle.count("LIST", "namespaces") + idle.count("LIST", "nodes"),
                    "nothing listed: " + idle.samples());
            // The API server renews its own lease every ten seconds, whenever the window falls.
            assertEquals(0, idle.without("coordination.k8s.io", "leases").writes(), "nothing written: " + idle.samples());

            // A change by hand reaches the watch: the next pass is whole, and puts Git's value back.
            try (KubernetesClient k = fleet.client("c1")) {
                k.configMaps().inNamespace(NS).withName("web-config").edit(c -> {
                    c.getData().put("value", "by hand");
                    return c;
                });
            }
            PassReport healed = fleet.pass();
            assertFalse(healed.skipped());
            assertEquals(1, healed.plan().actions().size(), healed.plan().toString());
            assertEquals("git", value(fleet));
            fleet.settle();
            fleet.passLater();

            // The rest ends at its horizon whatever happens: the pass after it is whole.
            fleet.clock.advance(AtRest.HORIZON);
            PassReport afterHorizon = fleet.engine.reconciler().reconcile();
            assertFalse(afterHorizon.skipped());
            assertTrue(afterHorizon.planning().targetsReused() > 0, afterHorizon.planning().toString());

            // A node whose kubelet stops: the Node's change reaches the watch, and the pass sees it.
            fleet.backend.nodeReady("c1", "c1-worker-1", false);
            fleet.pass();
            assertEquals(0, fleet.engine.reconciler().state().clusters().get("c1").readyNodes(), "the stopped node is seen");
            long whileDown = fleet.engine.reconciler().passesSkipped();
            fleet.passLater();
            assertEquals(whileDown, fleet.engine.reconciler().passesSkipped(), "a fleet with a node down is not at rest");
            fleet.backend.nodeReady("c1", "c1-worker-1", true);
            fleet.settle();

            // A push: the branch moved, the pass is whole and applies it.
            fleet.push("new value", c -> c.write("apps/web/manifests/config.yaml", configMap("pushed")));
            PassReport pushed = fleet.pass();
            assertEquals(1, pushed.plan().actions().size(), pushed.plan().toString());
            assertEquals("pushed", value(fleet));
        }
    }

    private static String value(TestFleet fleet) {
        try (KubernetesClient k = fleet.client("c1")) {
            return k.configMaps().inNamespace(NS).withName("web-config").get().getData().get("value");
        }
    }

    private static String app() {
        return "apiVersion: windlass.dev/v1alpha1\nkind: Application\nmetadata: {name: web}\nspec:\n  namespace: " + NS
                + "\n  placement: {clusterNames: [c1]}\n  syncPolicy: {force: true}\n";
    }

    private static String configMap(String value) {
        return "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: web-config}\ndata: {value: \"" + value + "\"}\n";
    }
}
