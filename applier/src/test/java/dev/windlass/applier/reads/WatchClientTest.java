package dev.windlass.applier.reads;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Status;
import io.fabric8.kubernetes.api.model.WatchEvent;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** How the watches' client reads a watch event: straight into the generic resource, an error as a Status. */
class WatchClientTest {

    private final KubernetesClient cluster = new KubernetesClientBuilder()
            .withConfig(new ConfigBuilder().withMasterUrl("http://127.0.0.1:1").build()).build();
    private final WatchClient watches = new WatchClient(cluster);
    private final KubernetesSerialization json = watches.client().getKubernetesSerialization();

    @AfterEach void close() { cluster.close(); }

    @Test void anEventOfABuiltInKindIsReadAsTheGenericResourceAListGives() {
        String event = "{\"type\":\"ADDED\",\"object\":{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\","
                + "\"metadata\":{\"name\":\"a\",\"namespace\":\"n\",\"resourceVersion\":\"7\"},\"data\":{\"k\":\"1\"},\"binaryData\":{}}}";
        Object object = json.unmarshal(event, WatchEvent.class).getObject();

        // No typed ConfigMap in between: nothing to convert, and the body is the one the server sent, empty map and all.
        GenericKubernetesResource generic = assertInstanceOf(GenericKubernetesResource.class, object);
        assertSame(GenericKubernetesResource.class, generic.getClass());
        assertEquals("7", generic.getMetadata().getResourceVersion());
        assertEquals(Map.of("k", "1"), generic.getAdditionalProperties().get("data"));
        assertEquals(Map.of(), generic.getAdditionalProperties().get("binaryData"));
    }

    @Test void anErrorEventIsReadAsAStatusSoAnExpiredWatchStartsAgainFromAList() {
        String event = "{\"type\":\"ERROR\",\"object\":{\"apiVersion\":\"v1\",\"kind\":\"Status\",\"status\":\"Failure\","
                + "\"message\":\"too old resource version: 5 (9)\",\"reason\":\"Expired\",\"code\":410}}";
        Object object = json.unmarshal(event, WatchEvent.class).getObject();

        Status status = assertInstanceOf(Status.class, object);
        assertEquals(410, status.getCode());
    }
}
