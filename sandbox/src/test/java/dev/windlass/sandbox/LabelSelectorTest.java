package dev.windlass.sandbox;

import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.KubernetesResourceList;
import io.fabric8.kubernetes.client.KubernetesClient;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * LIST with a label selector, as the engine uses it to find the objects it manages. Equality, inequality and
 * existence work; set-based {@code in}/{@code notin} are silently ignored by the mock, which this test pins down.
 */
class LabelSelectorTest {

    private static Sandbox sandbox;
    private static KubernetesClient client;

    @BeforeAll static void start() {
        sandbox = new Sandbox();
        client = sandbox.add("east", 1, 1).newClient();
        create("default", "a", "windlass.dev/app", "shop");
        create("default", "b", "windlass.dev/app", "blog");
        create("default", "c", null, null);
        create("other", "d", "windlass.dev/app", "shop");
    }

    @AfterAll static void stop() {
        client.close();
        sandbox.close();
    }

    @Test void equalityMatchesOnlyTheLabelledObjects() {
        assertEquals(List.of("a"), names(client.configMaps().withLabel("windlass.dev/app", "shop").list()));
        assertEquals(List.of("a", "d"),
                names(client.configMaps().inAnyNamespace().withLabel("windlass.dev/app", "shop").list()));
    }

    @Test void inequalityAndExistenceWork() {
        assertEquals(List.of("b", "c"), names(client.configMaps().withoutLabel("windlass.dev/app", "shop").list()));
        assertEquals(List.of("a", "b"), names(client.configMaps().withLabel("windlass.dev/app").list()));
        assertEquals(List.of("c"), names(client.configMaps().withoutLabel("windlass.dev/app").list()));
    }

    @Test void setBasedInIsIgnoredByTheMock() {
        assertEquals(List.of("a", "b", "c"), names(client.configMaps().withLabelIn("windlass.dev/app", "shop").list()));
    }

    private static void create(String ns, String name, String key, String value) {
        ConfigMapBuilder cm = new ConfigMapBuilder().withNewMetadata().withNamespace(ns).withName(name).endMetadata();
        if (key != null) {
            cm.editMetadata().addToLabels(key, value).endMetadata();
        }
        client.configMaps().inNamespace(ns).resource(cm.build()).create();
    }

    private static List<String> names(KubernetesResourceList<? extends HasMetadata> list) {
        return list.getItems().stream().map(o -> o.getMetadata().getName()).sorted().toList();
    }
}
