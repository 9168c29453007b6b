package dev.windlass.sandbox;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/** A store that finds objects by name answers as one that compares every object: what a client sees is the same. */
class IndexedCrudStoreTest {

    @Test void objectsOfOneNameAreToldApartByNamespaceThroughEveryWrite() {
        try (Sandbox sandbox = new Sandbox(); KubernetesClient client = sandbox.add("east", 1, 1).newClient()) {
            for (String ns : List.of("a", "b", "c")) {
                client.configMaps().inNamespace(ns).resource(configMap("same", ns)).create();
            }

            assertEquals("b", client.configMaps().inNamespace("b").withName("same").get().getData().get("in"));
            client.configMaps().inNamespace("b").withName("same")
                    .patch(PatchContext.of(PatchType.JSON_MERGE), "{\"data\":{\"in\":\"b2\"}}");
            ConfigMap replaced = client.configMaps().inNamespace("c").resource(configMap("same", "c3")).update();
            client.configMaps().inNamespace("a").withName("same").delete();

            assertNull(client.configMaps().inNamespace("a").withName("same").get());
            assertEquals("b2", client.configMaps().inNamespace("b").withName("same").get().getData().get("in"));
            assertEquals("c3", client.configMaps().inNamespace("c").withName("same").get().getData().get("in"));
            assertEquals(replaced.getMetadata().getResourceVersion(),
                    client.configMaps().inNamespace("c").withName("same").get().getMetadata().getResourceVersion());
            assertEquals(List.of("b", "c"), client.configMaps().inAnyNamespace().list().getItems().stream()
                    .map(cm -> cm.getMetadata().getNamespace()).sorted().toList());

            ConfigMap again = client.configMaps().inNamespace("a").resource(configMap("same", "a2")).create();
            assertEquals("a2", client.configMaps().inNamespace("a").withName("same").get().getData().get("in"));
            assertNotEquals(null, again.getMetadata().getUid());
        }
    }

    @Test void listsBySelectorAndMissingNamesAreAnsweredAsBefore() {
        try (Sandbox sandbox = new Sandbox(); KubernetesClient client = sandbox.add("east", 1, 1).newClient()) {
            client.configMaps().inNamespace("a").resource(new ConfigMapBuilder(configMap("one", "x"))
                    .editMetadata().addToLabels("tier", "web").endMetadata().build()).create();

            assertEquals(1, client.configMaps().inNamespace("a").withLabel("tier", "web").list().getItems().size());
            assertEquals(0, client.configMaps().inNamespace("a").withLabel("tier", "db").list().getItems().size());
            assertNull(client.configMaps().inNamespace("a").withName("two").get());
        }
    }

    private static ConfigMap configMap(String name, String in) {
        return new ConfigMapBuilder().withNewMetadata().withName(name).endMetadata().addToData("in", in).build();
    }
}
