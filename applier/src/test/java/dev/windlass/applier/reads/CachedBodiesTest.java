package dev.windlass.applier.reads;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What a watch delivered, as bodies: an object delivered again at the same version stays the same body. */
class CachedBodiesTest {
    final CachedBodies bodies = new CachedBodies(new KubernetesSerialization(), Query.of("v1", "ConfigMap"));

    @Test
    void aRedeliveryAtTheSameVersionKeepsTheBodyAndANewVersionReplacesIt() {
        bodies.put("default/a", configMap("a", "1", "first"));
        Map<String, Object> first = bodies.bodies().get(0);

        bodies.put("default/a", configMap("a", "1", "first"));   // a relist or a reconnect delivers it again
        assertSame(first, bodies.bodies().get(0));

        bodies.put("default/a", configMap("a", "2", "second"));
        Map<String, Object> second = bodies.bodies().get(0);
        assertNotSame(first, second);
        assertEquals(Map.of("key", "second"), second.get("data"));
        assertEquals(List.of(second), bodies.sameBodies(List.of(second)), "a LIST at that version gets the held body back");
        assertSame(second, bodies.sameBodies(List.of(Listing.body(new KubernetesSerialization(), Query.of("v1", "ConfigMap"),
                configMap("a", "2", "second")))).get(0));
    }

    private static GenericKubernetesResource configMap(String name, String resourceVersion, String value) {
        GenericKubernetesResource r = new GenericKubernetesResource();
        r.setApiVersion("v1");
        r.setKind("ConfigMap");
        r.setMetadata(new ObjectMetaBuilder().withName(name).withNamespace("default").withResourceVersion(resourceVersion).build());
        r.setAdditionalProperty("data", Map.of("key", value));
        return r;
    }
}
