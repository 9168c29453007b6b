package dev.windlass.applier.write;

import static dev.windlass.applier.support.Fixtures.configMap;
import static dev.windlass.applier.support.Fixtures.create;
import static dev.windlass.applier.support.Fixtures.delete;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.windlass.applier.support.MockCluster;
import dev.windlass.policy.model.ObjectRef;
import dev.windlass.policy.plan.ActionResult;
import dev.windlass.policy.plan.Outcome;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Deletes name the object only (no manifest); the API version comes from the group. */
class DeletionTest {

    private final MockCluster cluster = MockCluster.crud();
    private final ActionWrite apply = new ActionWrite();

    @AfterEach void stop() { cluster.close(); }

    @Test void deletesInTheBackground() {
        apply.apply(cluster.client(), create("eu-1", configMap("demo", "settings", "v")));
        cluster.takeRequests();

        ActionResult result = apply.apply(cluster.client(), delete("eu-1", new ObjectRef("", "ConfigMap", "demo", "settings")));

        assertEquals(Outcome.Deleted, result.outcome());
        assertEquals("deleted", result.message());
        assertNull(cluster.client().configMaps().inNamespace("demo").withName("settings").get());
        assertTrue(cluster.takeRequests().contains("DELETE /api/v1/namespaces/demo/configmaps/settings"));
    }

    @Test void deletingAnAbsentObjectIsDeletedAlreadyAbsent() {
        ActionResult result = apply.apply(cluster.client(), delete("eu-1", new ObjectRef("apps", "Deployment", "demo", "gone")));

        assertEquals(Outcome.Deleted, result.outcome());
        assertEquals("already absent", result.message());
        assertTrue(result.succeeded());
    }
}
