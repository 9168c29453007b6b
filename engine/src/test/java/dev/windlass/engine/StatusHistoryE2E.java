package dev.windlass.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.eclipse.jgit.revwalk.RevCommit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Settings spec.statusHistoryLimit: the status branch keeps its newest commits and says what it folded away. */
class StatusHistoryE2E {

    @TempDir Path dir;

    @Test
    void theStatusBranchKeepsItsNewestCommitsOnARootThatSaysWhatWasFolded() throws Exception {
        try (TestFleet fleet = new TestFleet(dir)) {
            fleet.push("add the fleet", TestFleet.folder(ReconcileLoopE2E.EXAMPLES, "").andThen(c -> c.write("windlass.yaml", """
                    apiVersion: windlass.dev/v1alpha1
                    kind: Settings
                    metadata: {name: windlass}
                    spec:
                      statusHistoryLimit: 5
                    """))::apply);
            fleet.settle();
            for (int i = 0; i < 8; i++) {
                String flag = "flag-" + i;
                fleet.push("web " + flag, c -> c.write("apps/web/manifests/configmap.yaml", """
                        apiVersion: v1
                        kind: ConfigMap
                        metadata:
                          name: web-config
                        data:
                          FEATURE_NEW_CHECKOUT: "%s"
                        """.formatted(flag)));
                fleet.pass();

                List<RevCommit> log = fleet.statusLog();
                // Trimmed to the newest 5 once over twice that: never more than 10 and a root.
                assertTrue(log.size() <= 11, "pass " + i + ": " + log.size() + " commits");
            }
            List<RevCommit> log = fleet.statusLog();
            RevCommit root = log.get(log.size() - 1);
            assertEquals(0, root.getParentCount());
            assertTrue(root.getFullMessage().startsWith("status history before "), root.getFullMessage());
            assertTrue(root.getFullMessage().contains("spec.statusHistoryLimit"), root.getFullMessage());
            // The root is a status commit too: it names the replica that trimmed.
            assertEquals(List.of(fleet.engine.reconciler().writer().replica()), root.getFooterLines("Windlass-Replica"), root.getFullMessage());
            assertEquals(List.of("unsharded"), root.getFooterLines("Windlass-Shards"), root.getFullMessage());
            assertTrue(fleet.statusLog().get(0).getFullMessage().contains("web"), fleet.statusLog().get(0).getFullMessage());
            String web = fleet.statusFile("status/apps/web.yaml");
            assertTrue(web.contains("eu-1"), web);
            try (var k = fleet.cluster("eu-1").newClient()) {
                assertEquals("flag-7", k.configMaps().inNamespace("web").withName("web-config").get()
                        .getData().get("FEATURE_NEW_CHECKOUT"));
            }
        }
    }
}
