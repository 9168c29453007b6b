package dev.windlass.applier.inventory;

import static dev.windlass.applier.support.Fixtures.configMap;
import static dev.windlass.applier.support.Fixtures.create;
import static dev.windlass.applier.support.Fixtures.delete;
import static dev.windlass.applier.support.Fixtures.manifest;
import static dev.windlass.applier.support.Fixtures.orphan;
import static dev.windlass.applier.support.Fixtures.update;
import static dev.windlass.applier.support.Fixtures.yaml;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.windlass.applier.Applier;
import dev.windlass.applier.cluster.ClusterClients;
import dev.windlass.applier.support.MockCluster;
import dev.windlass.policy.model.Manifest;
import dev.windlass.policy.observe.ClusterObservation;
import dev.windlass.policy.plan.ActionResult;
import dev.windlass.policy.plan.Outcome;
import dev.windlass.policy.plan.Stage;
import dev.windlass.policy.state.InventoryEntry;
import io.fabric8.kubernetes.api.model.ConfigMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Record-then-apply on a cluster like the sandbox (no server-side apply, merge patches as RFC 7386 says). */
class InventoryTest {

    private static final Manifest NAMESPACE = manifest(yaml("apiVersion: v1\nkind: Namespace\nmetadata: {name: demo}\n"), true);
    // Values that read as strings in YAML: a number would never equal the string the server stores.
    private static final Manifest SETTINGS = configMap("demo", "settings", "blue");
    private static final Manifest FLAGS = configMap("demo", "flags", "on");

    @Test void theInventoryHoldsWhatWasAppliedAndSurvivesARestart() {
        try (MockCluster cluster = MockCluster.crud()) {
            try (Applier applier = applier(cluster)) {
                List<ActionResult> results = applier.execute(stage(create("eu-1", NAMESPACE), create("eu-1", SETTINGS), create("eu-1", FLAGS)));
                assertTrue(results.stream().allMatch(r -> r.outcome() == Outcome.Created), results.toString());
            }
            ConfigMap inventory = cluster.client().configMaps().inNamespace("windlass-system").withName("windlass-inventory-web").get();
            assertEquals(Map.of("windlass.dev/inventory", "true", "windlass.dev/app", "web"), inventory.getMetadata().getLabels());
            assertEquals("""
                    - apiVersion: v1
                      kind: ConfigMap
                      namespace: demo
                      name: flags
                      hash: %s
                      gc: OnAppUpdate
                    - apiVersion: v1
                      kind: ConfigMap
                      namespace: demo
                      name: settings
                      hash: %s
                      gc: OnAppUpdate
                    """.formatted(FLAGS.hash(), SETTINGS.hash()), inventory.getData().get("inventory.yaml"));

            try (Applier restarted = applier(cluster)) {
                ClusterObservation seen = restarted.observe(Map.of("eu-1", Set.of())).cluster("eu-1");
                assertEquals(List.of("flags", "settings"), seen.inventories().get("web").stream().map(InventoryEntry::name).toList());
            }
        }
    }

    @Test void eachClusterGetsTheRecordOfWhatWasAppliedThere() {
        Manifest otherSettings = configMap("demo", "settings", "green");
        try (MockCluster eu = MockCluster.crud(); MockCluster us = MockCluster.crud(); MockCluster ap = MockCluster.crud()) {
            ClusterClients clients = new ClusterClients();
            clients.registerSandbox("eu-1", eu.config());
            clients.registerSandbox("us-1", us.config());
            clients.registerSandbox("ap-1", ap.config());
            try (Applier applier = new Applier(clients)) {
                List<ActionResult> results = applier.execute(stage(create("eu-1", NAMESPACE), create("eu-1", SETTINGS),
                        create("us-1", NAMESPACE), create("us-1", SETTINGS), create("ap-1", NAMESPACE), create("ap-1", otherSettings)));
                assertTrue(results.stream().allMatch(r -> r.outcome() == Outcome.Created), results.toString());
            }
            String record = """
                    - apiVersion: v1
                      kind: ConfigMap
                      namespace: demo
                      name: settings
                      hash: %s
                      gc: OnAppUpdate
                    """;
            assertEquals(record.formatted(SETTINGS.hash()), inventoryText(eu));
            assertEquals(record.formatted(SETTINGS.hash()), inventoryText(us));
            assertEquals(record.formatted(otherSettings.hash()), inventoryText(ap), "another hash on ap-1, its own record");
        }
    }

    private static String inventoryText(MockCluster cluster) {
        return cluster.client().configMaps().inNamespace("windlass-system").withName("windlass-inventory-web").get().getData().get("inventory.yaml");
    }

    @Test void aPassThatChangesNothingWritesNothing() {
        try (MockCluster cluster = MockCluster.crud(); Applier applier = applier(cluster)) {
            applier.execute(stage(create("eu-1", NAMESPACE), create("eu-1", SETTINGS)));
            cluster.takeRequests();

            List<ActionResult> again = applier.execute(stage(update("eu-1", SETTINGS)));

            assertEquals(Outcome.Unchanged, again.get(0).outcome(), again.get(0).message());
            List<String> writes = cluster.takeRequests().stream().filter(r -> !r.startsWith("GET")).toList();
            assertEquals(List.of(), writes);
        }
    }

    @Test void orphanedAndDeletedObjectsLeaveTheInventoryWhichGoesWhenEmpty() {
        try (MockCluster cluster = MockCluster.crud(); Applier applier = applier(cluster)) {
            applier.execute(stage(create("eu-1", NAMESPACE), create("eu-1", SETTINGS), create("eu-1", FLAGS)));

            applier.execute(stage(orphan("eu-1", FLAGS.ref(), "v1")));
            assertEquals(List.of("settings"), observedNames(applier));

            applier.execute(stage(delete("eu-1", SETTINGS.ref())));
            assertNull(cluster.client().configMaps().inNamespace("windlass-system").withName("windlass-inventory-web").get());
            assertFalse(applier.observe(Map.of("eu-1", Set.of())).cluster("eu-1").inventories().containsKey("web"));
        }
    }

    @Test void whenTheInventoryCannotBeWrittenNothingOfTheAppIsApplied() {
        try (MockCluster cluster = MockCluster.mixed(); Applier applier = applier(cluster)) {
            cluster.server().expect().post().withPath("/api/v1/namespaces/windlass-system/configmaps")
                    .andReturn(503, "{\"kind\":\"Status\",\"code\":503,\"message\":\"etcd is busy\"}").always();

            List<ActionResult> results = applier.execute(stage(create("eu-1", NAMESPACE), create("eu-1", SETTINGS), create("eu-1", FLAGS)));

            assertEquals(Outcome.Created, results.get(0).outcome(), "the app's namespace is not recorded, so it goes ahead");
            for (ActionResult r : results.subList(1, 3)) {
                assertEquals(Outcome.Failed, r.outcome());
                assertTrue(r.transientFailure());
                assertTrue(r.message().startsWith("not applied: recording it first in the cluster's inventory "
                        + "windlass-system/windlass-inventory-web failed: HTTP 503"), r.message());
            }
            assertNull(cluster.client().configMaps().inNamespace("demo").withName("settings").get());
            assertNull(cluster.client().configMaps().inNamespace("demo").withName("flags").get());
        }
    }

    private static List<String> observedNames(Applier applier) {
        return applier.observe(Map.of("eu-1", Set.of())).cluster("eu-1").inventories().get("web").stream()
                .map(InventoryEntry::name).toList();
    }

    private static Stage stage(dev.windlass.policy.plan.Action... actions) { return new Stage("apply", "", List.of(actions)); }

    /** Like the engine registers a sandbox cluster: no server-side apply. */
    private static Applier applier(MockCluster cluster) {
        ClusterClients clients = new ClusterClients();
        clients.registerSandbox("eu-1", cluster.config());
        return new Applier(clients);
    }
}
