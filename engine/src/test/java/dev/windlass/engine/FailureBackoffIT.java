package dev.windlass.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.windlass.engine.reconcile.PassReport;
import dev.windlass.policy.plan.Outcome;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A ConfigMap the API server refuses (a key it does not allow), on a real control plane, with the engine's clock moved
 * on by a 5 s interval per pass for ten minutes: the server counts at most log2(600 / 5) + 10 write requests for it,
 * not one a pass; the status says when the next try is; a commit that changes the object is tried at once and, fixed,
 * goes through.
 */
class FailureBackoffIT {
    @TempDir Path dir;

    @Test
    void aRefusedWriteIsTriedAgainWithBackoffNotOnEveryPass() throws Exception {
        try (TestFleet fleet = new TestFleet(dir, true)) {
            fleet.push("an app with an object the server refuses", c -> c
                    .write("clusters/lab.yaml", fleet.clusterYaml("lab", "env: lab", 1, 0, ""))
                    .write("apps/bad/app.yaml", HostileYamlE2E.app("bad").replace("eu-1", "lab"))
                    .write("apps/bad/manifests/cm.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: refused}\ndata: {\"no spaces allowed\": x}\n")
                    .write("apps/bad/manifests/fine.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: fine}\ndata: {a: b}\n"));
            PassReport first = fleet.pass();
            assertTrue(first.applied().results().stream().anyMatch(r -> r.outcome() == Outcome.Failed && r.action().object().name().equals("refused")),
                    first.applied().results().toString());
            try (KubernetesClient k = fleet.client("lab")) {
                assertNotNull(k.configMaps().inNamespace("bad").withName("fine").get(), "what the server takes is applied");
            }
            String status = fleet.statusFile("status/apps/bad.yaml");
            assertTrue(status.contains("retry:") && status.contains("kind: Lasting") && status.contains("next: "), status);

            fleet.backend.resetWrites("lab");
            int passes = 0;
            for (Duration elapsed = Duration.ZERO; elapsed.compareTo(Duration.ofMinutes(10)) < 0; elapsed = elapsed.plusSeconds(5)) {
                fleet.clock.advance(Duration.ofSeconds(5));
                fleet.pass();
                passes++;
            }
            long writes = fleet.backend.writes("lab");
            long bound = (long) Math.ceil(Math.log(600.0 / 5) / Math.log(2)) + 10;
            assertTrue(writes <= bound, writes + " write requests over " + passes + " passes of 10 minutes; at most " + bound);
            assertTrue(writes >= 3, "it is still tried now and then: " + writes);
            String later = fleet.statusFile("status/apps/bad.yaml");
            assertTrue(later.contains("backing off: the same writes failed"), later);

            fleet.push("fix the key", c -> c.write("apps/bad/manifests/cm.yaml",
                    "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: refused}\ndata: {no-spaces: x}\n"));
            fleet.clock.advance(Duration.ofSeconds(5));
            PassReport fixed = fleet.pass();
            assertEquals(0, fixed.applied().results().stream().filter(r -> r.outcome() == Outcome.Failed).count(), fixed.applied().results().toString());
            try (KubernetesClient k = fleet.client("lab")) {
                assertNotNull(k.configMaps().inNamespace("bad").withName("refused").get(), "a changed object is tried at once, and goes through");
            }
            assertTrue(!fleet.statusFile("status/apps/bad.yaml").contains("retry:"), "no retry left once the writes went through");
        }
    }
}
