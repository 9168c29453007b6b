package dev.windlass.applier.inventory;

import static dev.windlass.applier.support.Fixtures.configMap;
import static dev.windlass.applier.support.Fixtures.create;
import static dev.windlass.applier.support.Fixtures.serverSide;
import static dev.windlass.applier.support.Fixtures.update;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.windlass.applier.Applier;
import dev.windlass.applier.cluster.ClusterClients;
import dev.windlass.applier.support.RealCluster;
import dev.windlass.kubetest.RequestCounts;
import dev.windlass.policy.model.Manifest;
import dev.windlass.policy.plan.ActionResult;
import dev.windlass.policy.plan.Outcome;
import dev.windlass.policy.plan.Stage;
import dev.windlass.policy.state.InventoryEntry;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.rbac.RoleBindingBuilder;
import io.fabric8.kubernetes.api.model.rbac.RoleBuilder;
import io.fabric8.kubernetes.client.ConfigBuilder;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Record-then-apply against a real API server, including one whose RBAC forbids writing the inventory. */
class InventoryIT {

    private static RealCluster cluster;

    @BeforeAll static void start() { cluster = RealCluster.start(); }

    @AfterAll static void stop() { cluster.close(); }

    @Test void theInventoryIsWrittenOnceAndReadAfterARestart() {
        String ns = cluster.newNamespace("inv");
        Manifest settings = configMap(ns, "settings", "blue");
        Manifest flags = configMap(ns, "flags", "on");
        try (Applier applier = cluster.newApplier()) {
            List<ActionResult> results = applier.execute(new Stage("apply", "", List.of(
                    serverSide(create(RealCluster.NAME, settings)), serverSide(create(RealCluster.NAME, flags)))));
            assertTrue(results.stream().allMatch(r -> r.outcome() == Outcome.Created), results.toString());
        }
        ConfigMap inventory = cluster.admin().configMaps().inNamespace("windlass-system").withName("windlass-inventory-web").get();
        assertNotNull(inventory);
        assertEquals(Map.of("windlass.dev/inventory", "true", "windlass.dev/app", "web"), inventory.getMetadata().getLabels());
        assertEquals(List.of(InventoryEntry.of(flags), InventoryEntry.of(settings)),
                InventoryRecord.parse(inventory.getData().get("inventory.yaml")).list());

        try (Applier restarted = cluster.newApplier()) {
            RequestCounts before = cluster.counts();
            List<ActionResult> again = restarted.execute(new Stage("apply", "", List.of(
                    serverSide(update(RealCluster.NAME, settings)), serverSide(update(RealCluster.NAME, flags)))));
            RequestCounts between = cluster.countsSince(before);
            assertTrue(again.stream().allMatch(r -> r.outcome() == Outcome.Unchanged), again.toString());
            assertEquals(0, between.writes(), between.samples().toString());

            List<InventoryEntry> seen = restarted.observe(Map.of(RealCluster.NAME, Set.of())).cluster(RealCluster.NAME)
                    .inventories().get("web");
            assertEquals(List.of(InventoryEntry.of(flags), InventoryEntry.of(settings)), seen);
        }
    }

    @Test void whereTheInventoryMayNotBeWrittenNothingIsApplied() {
        String ns = cluster.newNamespace("forbidden");
        // "deployer" may do anything in its namespace, and nothing anywhere else (windlass-system included).
        cluster.admin().rbac().roles().inNamespace(ns).resource(new RoleBuilder().withNewMetadata().withName("all").endMetadata()
                .addNewRule().withApiGroups("*").withResources("*").withVerbs("*").endRule().build()).create();
        cluster.admin().rbac().roleBindings().inNamespace(ns).resource(new RoleBindingBuilder()
                .withNewMetadata().withName("deployer").endMetadata()
                .withNewRoleRef().withApiGroup("rbac.authorization.k8s.io").withKind("Role").withName("all").endRoleRef()
                .addNewSubject().withApiGroup("rbac.authorization.k8s.io").withKind("User").withName("deployer").endSubject()
                .build()).create();
        ClusterClients clients = new ClusterClients();
        clients.register(RealCluster.NAME, new ConfigBuilder(cluster.server().config()).withImpersonateUsername("deployer").build(), true);

        try (Applier applier = new Applier(clients)) {
            ActionResult result = applier.execute(new Stage("apply", "", List.of(
                    serverSide(create(RealCluster.NAME, configMap(ns, "unrecorded", "x")))))).get(0);

            assertEquals(Outcome.Failed, result.outcome(), result.message());
            assertTrue(result.transientFailure());
            assertTrue(result.message().startsWith(
                    "not applied: recording it first in the cluster's inventory windlass-system/windlass-inventory-web failed: HTTP 403"),
                    result.message());
        }
        assertNull(cluster.admin().configMaps().inNamespace(ns).withName("unrecorded").get(), "nothing applied unrecorded");
    }
}
