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

    /**
     * A Node's heartbeat (its status written again with nothing new but the time) is kept, at its new resource version,
     * but is no change; a condition that changes is one.
     */
    @Test void aNodesHeartbeatIsKeptButIsNoChange() {
        CachedBodies nodes = new CachedBodies(new KubernetesSerialization(), Query.of("v1", "Node"));
        nodes.put("n", node("1", "True", "2026-01-01T00:00:00Z"));
        long changes = nodes.changes();

        nodes.put("n", node("2", "True", "2026-01-01T00:05:00Z"));
        assertEquals(changes, nodes.changes(), "a heartbeat is no change");
        assertEquals(true, nodes.holdsExactly(Map.of("n", "2")), "kept at its new resource version, which the next proof compares");

        nodes.put("n", node("3", "False", "2026-01-01T00:10:00Z"));
        assertEquals(changes + 1, nodes.changes(), "Ready went False: a change");

        // The same heartbeat on any other kind is a change like any other.
        CachedBodies other = new CachedBodies(new KubernetesSerialization(), Query.of("v1", "ConfigMap"));
        other.put("n", node("1", "True", "2026-01-01T00:00:00Z"));
        long before = other.changes();
        other.put("n", node("2", "True", "2026-01-01T00:05:00Z"));
        assertEquals(before + 1, other.changes());
    }

    private static GenericKubernetesResource node(String resourceVersion, String ready, String beat) {
        GenericKubernetesResource node = new GenericKubernetesResource();
        node.setApiVersion("v1");
        node.setKind("Node");
        node.setMetadata(new ObjectMetaBuilder().withName("n").withResourceVersion(resourceVersion).build());
        node.setAdditionalProperty("status", Map.of("conditions", List.of(Map.of("type", "Ready", "status", ready,
                "lastHeartbeatTime", beat, "lastTransitionTime", ready.equals("True") ? "2026-01-01T00:00:00Z" : beat))));
        return node;
    }
}
