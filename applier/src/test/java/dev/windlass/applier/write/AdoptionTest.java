package dev.windlass.applier.write;

import static dev.windlass.applier.support.Fixtures.configMap;
import static dev.windlass.applier.support.Fixtures.create;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.windlass.applier.kube.OwnershipMarks;
import dev.windlass.applier.support.MockCluster;
import dev.windlass.policy.plan.ActionResult;
import dev.windlass.policy.plan.Outcome;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A Create for an object that already exists, unmarked, takes it over instead of failing. */
class AdoptionTest {

    private static final String PATH = "/api/v1/namespaces/demo/configmaps/settings";

    private final ActionWrite apply = new ActionWrite();

    @Test void existingObjectIsAdopted() {
        try (MockCluster cluster = MockCluster.crud()) {
            createByHand(cluster);

            ActionResult result = apply.apply(cluster.client(), create("eu-1", configMap("demo", "settings", "from-git")));

            assertEquals(Outcome.Configured, result.outcome());
            assertTrue(result.message().startsWith("adopted existing object"), result.message());
            assertAdopted(cluster);
        }
    }

    /** Someone created the object after the plan saw it absent: the POST's 409 leads to the same adoption. */
    @Test void conflictOnCreateFallsBackToAdoption() {
        try (MockCluster cluster = MockCluster.mixed()) {
            createByHand(cluster);
            cluster.takeRequests();

            ActionResult result = apply.apply(cluster.client(), create("eu-1", configMap("demo", "settings", "from-git")));

            assertEquals(Outcome.Configured, result.outcome(), result.message());
            assertTrue(result.message().startsWith("adopted existing object"), result.message());
            assertEquals(List.of("POST /api/v1/namespaces/demo/configmaps", "GET " + PATH, "PATCH " + PATH),
                    cluster.takeRequests());
            assertAdopted(cluster);
        }
    }

    private static void createByHand(MockCluster cluster) {
        cluster.client().configMaps().inNamespace("demo").resource(new ConfigMapBuilder()
                .withNewMetadata().withName("settings").withNamespace("demo").endMetadata()
                .addToData("key", "by-hand").build()).create();
    }

    private static void assertAdopted(MockCluster cluster) {
        ConfigMap live = cluster.client().configMaps().inNamespace("demo").withName("settings").get();
        assertEquals("from-git", live.getData().get("key"));
        assertEquals(OwnershipMarks.MANAGED_BY_VALUE, live.getMetadata().getLabels().get(OwnershipMarks.MANAGED_BY));
    }
}
