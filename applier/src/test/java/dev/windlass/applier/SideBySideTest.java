package dev.windlass.applier;

import dev.windlass.policy.plan.ActionReason;
import static dev.windlass.applier.support.Fixtures.configMap;
import static dev.windlass.applier.support.Fixtures.manifest;
import static dev.windlass.applier.support.Fixtures.yaml;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.windlass.applier.cluster.ClientSettings;
import dev.windlass.applier.cluster.ClusterClients;
import dev.windlass.applier.support.MockCluster;
import dev.windlass.policy.model.Application.ApplyStrategy;
import dev.windlass.policy.model.Manifest;
import dev.windlass.policy.plan.Action;
import dev.windlass.policy.plan.ActionResult;
import dev.windlass.policy.plan.Operation;
import dev.windlass.policy.plan.Outcome;
import dev.windlass.policy.plan.Stage;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Applications applied side by side on one cluster (several writes in flight): the plan's order of phases and waves
 * still holds on the server, each application's inventory is written before its objects and once, and the results
 * are the plan's.
 */
class SideBySideTest {

    private static final int APPS = 6;

    @Test void phasesAndWavesKeepTheirOrderAndEachInventoryIsWrittenOnceBeforeItsObjects() {
        List<Action> actions = new ArrayList<>();
        for (int i = 0; i < APPS; i++) {
            String app = "app" + i;
            actions.add(create(app, manifest(yaml("apiVersion: v1\nkind: Namespace\nmetadata: {name: " + app + "}\n"), true)));
        }
        for (int i = 0; i < APPS; i++) {
            String app = "app" + i;
            actions.add(create(app, configMap(app, "first", "a")));
            actions.add(create(app, configMap(app, "second", "b")));
        }
        for (int i = 0; i < APPS; i++) actions.add(create("app" + i, inWave(configMap("app" + i, "later", "c"), 1)));
        Stage stage = new Stage("apply", "", actions);

        try (MockCluster cluster = MockCluster.crud(); Applier applier = applier(cluster, 3)) {
            List<ActionResult> results = applier.execute(stage);

            assertEquals(actions, results.stream().map(ActionResult::action).toList(), "results in the plan's order");
            assertTrue(results.stream().allMatch(r -> r.outcome() == Outcome.Created), results.toString());
            List<String> requests = cluster.takeRequests();
            List<String> writes = requests.stream().filter(r -> !r.startsWith("GET")).toList();

            int lastNamespace = lastIndex(writes, "POST /api/v1/namespaces");
            int firstObject = firstIndex(writes, w -> w.matches("POST /api/v1/namespaces/app\\d/configmaps.*"));
            assertTrue(lastNamespace < firstObject, "every app's namespace before any of its objects: " + writes);
            assertTrue(writes.size() == 1 + APPS + APPS + APPS * 3, "namespaces, inventories and objects, each once: " + writes);
            assertEquals(1, writes.stream().filter(w -> w.equals("POST /api/v1/namespaces")).count() - APPS,
                    "windlass-system created once: " + writes);
            assertEquals(APPS, writes.stream().filter(w -> w.startsWith("POST /api/v1/namespaces/windlass-system/configmaps")).count(),
                    "one inventory write per app: " + writes);
            assertEquals(List.of("GET /api/v1/namespaces/windlass-system"), requests.stream().filter(r -> r.startsWith("GET")).toList(),
                    "the inventory namespace is looked up once; new apps' inventories are not read before they are created");
            for (int i = 0; i < APPS; i++) {
                String app = "app" + i;
                assertTrue(cluster.client().configMaps().inNamespace("windlass-system").withName("windlass-inventory-" + app).get()
                        .getData().get("inventory.yaml").contains("name: later"), app + "'s inventory lists its objects of both waves");
                long firstOfApp = List.of("first", "second", "later").stream().mapToLong(n -> version(cluster, app, n)).min().orElseThrow();
                assertTrue(version(cluster, "windlass-system", "windlass-inventory-" + app) < firstOfApp, app + " recorded before applied");
            }
            // Wave 1 on the server only after every object of wave 0: compare the resource versions the server gave them.
            long newestOfWaveZero = 0;
            long oldestOfWaveOne = Long.MAX_VALUE;
            for (int i = 0; i < APPS; i++) {
                for (String name : List.of("first", "second")) newestOfWaveZero = Math.max(newestOfWaveZero, version(cluster, "app" + i, name));
                oldestOfWaveOne = Math.min(oldestOfWaveOne, version(cluster, "app" + i, "later"));
            }
            assertTrue(newestOfWaveZero < oldestOfWaveOne, "wave 1 was written after all of wave 0");
        }
    }

    @Test void oneWriteInFlightKeepsThePlansOrderExactly() {
        // Plan order interleaves two applications: one write at a time keeps it, rather than grouping by application.
        List<Action> actions = List.of(create("app0", configMap("shared", "c0", "v")), create("app1", configMap("shared", "c1", "v")),
                create("app0", configMap("shared", "c2", "v")));
        try (MockCluster cluster = MockCluster.crud(); Applier applier = applier(cluster, 1)) {
            applier.execute(new Stage("apply", "", actions));
            List<String> objects = cluster.takeRequests().stream().filter(r -> r.startsWith("POST /api/v1/namespaces/shared/")).toList();
            assertEquals(3, objects.size(), objects.toString());
            List<Long> versions = new ArrayList<>();
            for (int i = 0; i < 3; i++) versions.add(version(cluster, "shared", "c" + i));
            assertEquals(versions.stream().sorted().toList(), versions, "written one after another, in the plan's order");
        }
    }

    private static long version(MockCluster cluster, String namespace, String name) {
        return Long.parseLong(cluster.client().configMaps().inNamespace(namespace).withName(name).get().getMetadata().getResourceVersion());
    }

    private static int lastIndex(List<String> writes, String exact) { return writes.lastIndexOf(exact); }

    private static int firstIndex(List<String> writes, java.util.function.Predicate<String> p) {
        for (int i = 0; i < writes.size(); i++) if (p.test(writes.get(i))) return i;
        return -1;
    }

    private static Manifest inWave(Manifest m, int wave) {
        return new Manifest(m.ref(), m.apiVersion(), m.body(), m.location(), m.hash(), wave, m.applyMode(), m.gcPolicy(), m.implicit());
    }

    private static Action create(String app, Manifest m) {
        return new Action(app, "eu-1", m.ref(), m.apiVersion(), Operation.Create, new ActionReason.NotOnCluster(), List.of(), m, ApplyStrategy.ClientSide, false);
    }

    /** Like the engine registers a sandbox cluster, with {@code inFlight} writes at once. */
    private static Applier applier(MockCluster cluster, int inFlight) {
        ClusterClients clients = new ClusterClients(ClientSettings.DEFAULT.withConcurrency(inFlight, false));
        clients.registerSandbox("eu-1", cluster.config());
        return new Applier(clients);
    }
}
