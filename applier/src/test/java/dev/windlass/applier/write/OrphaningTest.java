package dev.windlass.applier.write;

import static dev.windlass.applier.support.Fixtures.configMap;
import static dev.windlass.applier.support.Fixtures.create;
import static dev.windlass.applier.support.Fixtures.orphan;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.windlass.applier.support.MockCluster;
import dev.windlass.policy.plan.ActionResult;
import dev.windlass.policy.plan.Outcome;
import io.fabric8.kubernetes.api.model.ConfigMap;
import org.junit.jupiter.api.Test;

/** Orphaning on a cluster without server-side apply (the sandbox's kind of server): a merge patch removes the marks. */
class OrphaningTest {

    @Test void marksAreRemovedAndTheObjectStays() {
        try (MockCluster cluster = MockCluster.crud()) {
            var settings = configMap("demo", "settings", "kept");
            new ActionWrite().apply(cluster.client(), create("eu-1", settings));

            ActionResult result = new ActionWrite().apply(cluster.client(), orphan("eu-1", settings.ref(), "v1"));

            assertEquals(Outcome.Configured, result.outcome(), result.message());
            assertEquals("orphaned: kept, no longer managed", result.message());
            ConfigMap live = cluster.client().configMaps().inNamespace("demo").withName("settings").get();
            assertNotNull(live);
            assertEquals("kept", live.getData().get("key"));
            assertNull(live.getMetadata().getLabels().get("app.kubernetes.io/managed-by"));
            assertNull(live.getMetadata().getLabels().get("windlass.dev/app"));
            assertNull(live.getMetadata().getAnnotations().get("windlass.dev/applied-hash"));
            assertNull(live.getMetadata().getAnnotations().get("windlass.dev/last-applied"));
        }
    }

    @Test void anObjectAlreadyGoneIsNothingToLetGoOf() {
        try (MockCluster cluster = MockCluster.crud()) {
            var settings = configMap("demo", "settings", "kept");

            ActionResult result = new ActionWrite().apply(cluster.client(), orphan("eu-1", settings.ref(), "v1"));

            assertEquals(Outcome.Unchanged, result.outcome(), result.message());
        }
    }
}
