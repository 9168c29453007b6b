package dev.windlass.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.windlass.engine.cli.Main;
import dev.windlass.engine.reconcile.PassReport;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.eclipse.jgit.revwalk.RevCommit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The whole loop against a real Git origin and three sandbox clusters: Git → plan → clusters → status
 * commits, in the six steps a user goes through first.
 */
class ReconcileLoopE2E {
    static final Path EXAMPLES = Path.of("..", "examples-repo");

    @TempDir Path dir;

    @Test
    void fromGitToClustersToStatusCommits() throws Exception {
        try (TestFleet fleet = new TestFleet(dir)) {
            // 1. The initial sync applies everything.
            fleet.push("add the fleet", TestFleet.folder(EXAMPLES, ""));
            fleet.settle();
            for (String c : List.of("eu-1", "eu-2", "us-1")) {
                try (KubernetesClient k = fleet.cluster(c).newClient()) {
                    assertEquals("ghcr.io/example/web:1.4.2", image(k, "web", "web"), "web on " + c);
                    assertNotNull(k.configMaps().inNamespace("web").withName("web-config").get());
                    assertNotNull(k.services().inNamespace("api").withName("api").get());
                    assertEquals("windlass", k.apps().deployments().inNamespace("api").withName("api").get()
                            .getMetadata().getLabels().get("app.kubernetes.io/managed-by"));
                }
            }
            long cacheClusters = fleet.sandbox.clusters().stream().filter(c -> {
                try (KubernetesClient k = c.newClient()) {
                    return k.apps().statefulSets().inNamespace("cache").withName("redis").get() != null;
                }
            }).count();
            assertEquals(2, cacheClusters, "cache has maxClusters: 2");
            String fleetYaml = fleet.statusFile("status/fleet.yaml");
            assertTrue(fleetYaml.contains("web@eu-1: \"Synced, Healthy, "), fleetYaml);
            assertTrue(fleet.statusLog().stream().anyMatch(c -> c.getFullMessage().contains("web healthy on")), "a status commit tells web became healthy");

            // 2. A changed image: only that Deployment is re-sent, and the status commit says so.
            fleet.resetRequestCounts();
            fleet.push("web 1.5.0", c -> c.write("apps/web/manifests/deployment.yaml",
                    read(EXAMPLES.resolve("apps/web/manifests/deployment.yaml")).replace("web:1.4.2", "web:1.5.0")));
            PassReport changed = fleet.pass();
            assertEquals(3, changed.applied().results().size(), changed.plan().toString());
            assertTrue(changed.applied().results().stream().allMatch(r -> r.action().object().toString().equals("Deployment web/web")));
            for (String c : List.of("eu-1", "eu-2", "us-1")) {
                var log = fleet.cluster(c).requests();
                assertEquals(1, log.count("PATCH", "/apis/apps/v1/namespaces/web/deployments/web"), "the Deployment is re-sent on " + c + ": " + log);
                assertEquals(1, log.count("PUT", "/api/v1/namespaces/windlass-system/configmaps/windlass-inventory-web"),
                        "its new hash is recorded in the cluster's inventory first: " + log);
                assertEquals(2, log.writes(), "nothing else is written on " + c + ": " + log);
                try (KubernetesClient k = fleet.cluster(c).newClient()) {
                    assertEquals("ghcr.io/example/web:1.5.0", image(k, "web", "web"));
                }
            }
            RevCommit commit = fleet.statusLog().get(0);
            assertTrue(commit.getShortMessage().startsWith("windlass: web "), commit.getFullMessage());
            assertTrue(commit.getFullMessage().contains("web " + changed.desired().apps().get("web").revision() + " on eu-1: 1 configured"), commit.getFullMessage());
            assertTrue(commit.getFullMessage().contains("Windlass-Source: " + changed.source()), commit.getFullMessage());
            assertTrue(commit.getFullMessage().contains("Windlass-Event: Sync"), commit.getFullMessage());
            fleet.settle();

            // 3. A manifest deleted from Git is pruned.
            fleet.push("drop web-config", c -> c.delete("apps/web/manifests/configmap.yaml"));
            PassReport pruned = fleet.pass();
            for (String c : List.of("eu-1", "eu-2", "us-1")) {
                try (KubernetesClient k = fleet.cluster(c).newClient()) {
                    assertNull(k.configMaps().inNamespace("web").withName("web-config").get(), "pruned on " + c);
                }
            }
            String pruneMessage = fleet.statusLog().get(0).getFullMessage();
            assertTrue(pruneMessage.contains("pruned ConfigMap web/web-config (removed from Git)"), pruneMessage);
            assertTrue(pruneMessage.contains("Windlass-Event: Prune"), pruneMessage);
            assertFalse(fleet.statusFile("status/apps/web.yaml").contains("web-config"), "gone from the inventory");
            fleet.settle();

            // 4. A hand edit on an app with selfHeal off is reported as drift, not corrected.
            String cacheCluster = fleet.sandbox.clusters().stream().filter(c -> {
                try (KubernetesClient k = c.newClient()) {
                    return k.apps().statefulSets().inNamespace("cache").withName("redis").get() != null;
                }
            }).findFirst().orElseThrow().name();
            try (KubernetesClient k = fleet.cluster(cacheCluster).newClient()) {
                k.apps().statefulSets().inNamespace("cache").withName("redis").edit(s -> {
                    s.getSpec().setReplicas(4);
                    return s;
                });
            }
            fleet.resetRequestCounts();
            PassReport drifted = fleet.pass();
            assertEquals(0, fleet.cluster(cacheCluster).requests().writes(), "drift is reported, not corrected");
            assertEquals(1, drifted.planning().targetsPlanned(), "only cache on " + cacheCluster + " is compared again: " + drifted.planning());
            String cacheStatus = fleet.statusFile("status/apps/cache.yaml");
            assertTrue(cacheStatus.contains("StatefulSet cache/redis: spec.replicas"), cacheStatus);
            String driftMessage = fleet.statusLog().get(0).getFullMessage();
            assertTrue(driftMessage.contains("Windlass-Event: Drift"), driftMessage);
            StringWriter table = new StringWriter();
            assertEquals(0, Main.run(new PrintWriter(table), new PrintWriter(new StringWriter()), "status", "cache",
                    "--repo", fleet.origin.toString(), "--workdir", dir.resolve("cli").toString()));
            assertTrue(table.toString().contains("drift: StatefulSet cache/redis: spec.replicas"), table.toString());

            // 5. Malformed YAML in one app: shown with path:line:col in status and validate; the others keep reconciling.
            String brokenApi = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: api-config\ndata:\n  LOG_LEVEL: info\n  LOG_LEVEL: debug\n";
            fleet.push("api: debug logging, web: 3 replicas", c -> c.write("apps/api/manifests/api.yaml", brokenApi)
                    .write("apps/web/manifests/deployment.yaml", read(EXAMPLES.resolve("apps/web/manifests/deployment.yaml"))
                            .replace("web:1.4.2", "web:1.5.0").replace("replicas: 2", "replicas: 3")));
            fleet.pass();
            String apiStatus = fleet.statusFile("status/apps/api.yaml");
            assertTrue(apiStatus.contains("apps/api/manifests/api.yaml:7:3: duplicate key 'LOG_LEVEL' (first at line 6); keep only one"), apiStatus);
            assertTrue(apiStatus.contains("reason: Invalid"), apiStatus);
            try (KubernetesClient k = fleet.cluster("eu-1").newClient()) {
                assertEquals(3, k.apps().deployments().inNamespace("web").withName("web").get().getSpec().getReplicas(), "web still reconciles");
                assertNotNull(k.apps().deployments().inNamespace("api").withName("api").get(), "api is left as it was, not deleted");
                assertEquals("info", k.configMaps().inNamespace("api").withName("api-config").get().getData().get("LOG_LEVEL"));
            }
            Path checkout = dir.resolve("checkout");
            Files.createDirectories(checkout.resolve("apps/api/manifests"));
            Files.writeString(checkout.resolve("apps/api/manifests/api.yaml"), brokenApi);
            StringWriter validate = new StringWriter();
            assertEquals(1, Main.run(new PrintWriter(validate), new PrintWriter(new StringWriter()), "validate", checkout.toString()));
            assertTrue(validate.toString().contains("apps/api/manifests/api.yaml:7:3: duplicate key 'LOG_LEVEL'"), validate.toString());
            fleet.settle();

            // 6. A second pass with nothing changed: no API writes at all and no new status commit.
            RevCommit before = fleet.statusLog().get(0);
            fleet.resetRequestCounts();
            PassReport idle = fleet.pass();
            assertEquals(0, fleet.writes(), "no API writes: " + fleet.sandbox.clusters());
            assertFalse(idle.committed());
            assertEquals(before, fleet.statusLog().get(0), "no new status commit");
            assertEquals(0, idle.filesParsed(), "nothing re-parsed");
            assertEquals(0, idle.planning().targetsPlanned(), "nothing compared again: " + idle.planning());
            assertTrue(idle.planning().targetsReused() > 0, idle.planning().toString());
        }
    }

    static String image(KubernetesClient k, String ns, String name) {
        Deployment d = k.apps().deployments().inNamespace(ns).withName(name).get();
        return d.getSpec().getTemplate().getSpec().getContainers().get(0).getImage();
    }

    static String read(Path p) {
        try {
            return Files.readString(p);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
