package dev.windlass.applier.write;

import static dev.windlass.applier.support.Fixtures.create;
import static dev.windlass.applier.support.Fixtures.manifest;
import static dev.windlass.applier.support.Fixtures.yaml;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.windlass.applier.kube.OwnershipMarks;
import dev.windlass.applier.support.Fixtures;
import dev.windlass.applier.support.MockCluster;
import dev.windlass.policy.model.Manifest;
import dev.windlass.policy.plan.Outcome;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** An application's namespace: created when absent, otherwise left exactly as it is. */
class ImplicitObjectTest {

    private static final Manifest NAMESPACE = manifest(yaml("{apiVersion: v1, kind: Namespace, metadata: {name: demo}}"), true);

    private final MockCluster cluster = MockCluster.crud();
    private final ActionWrite apply = new ActionWrite();

    @AfterEach void stop() { cluster.close(); }

    @Test void createdWhenAbsentAndNotMarkedAsManaged() {
        var result = apply.apply(cluster.client(), create("eu-1", NAMESPACE));

        assertEquals(Outcome.Created, result.outcome());
        Namespace live = cluster.client().namespaces().withName("demo").get();
        assertNotNull(live);
        Map<String, String> labels = live.getMetadata().getLabels();
        assertTrue(labels == null || !labels.containsKey(OwnershipMarks.MANAGED_BY), "never observed as managed, never pruned");
    }

    @Test void existingNamespaceIsNeverPatched() {
        cluster.client().namespaces().resource(new NamespaceBuilder().withNewMetadata().withName("demo")
                .addToLabels("owner", "platform").endMetadata().build()).create();
        cluster.takeRequests();

        var result = apply.apply(cluster.client(), create("eu-1", NAMESPACE));

        assertEquals(Outcome.Unchanged, result.outcome());
        assertEquals(List.of("POST /api/v1/namespaces"), cluster.takeRequests(), "one create, answered 409; no patch");
        assertEquals("platform", cluster.client().namespaces().withName("demo").get().getMetadata().getLabels().get("owner"));

        cluster.takeRequests();
        var again = apply.apply(cluster.client(), Fixtures.update("eu-1", NAMESPACE));
        assertEquals(Outcome.Unchanged, again.outcome());
        assertEquals(List.of("GET /api/v1/namespaces/demo"), cluster.takeRequests(), "anything but a create looks first and writes nothing");
    }
}
