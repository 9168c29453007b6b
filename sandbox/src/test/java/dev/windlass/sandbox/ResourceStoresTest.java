package dev.windlass.sandbox;

import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Which store answers which path, and that the split is invisible through the API. */
class ResourceStoresTest {

    @Test void eachBuiltInResourceHasAStoreAndEverythingElseShares() {
        assertEquals("/configmaps", ResourceStores.storeFor("/api/v1/namespaces/demo/configmaps/settings"));
        assertEquals("/configmaps", ResourceStores.storeFor("/api/v1/namespaces/demo/configmaps?labelSelector=a%3Db"));
        assertEquals("/configmaps", ResourceStores.storeFor("/api/v1/configmaps?watch=true"));
        assertEquals("/pods", ResourceStores.storeFor("/api/v1/watch/namespaces/demo/pods"));
        assertEquals("/namespaces", ResourceStores.storeFor("/api/v1/namespaces"));
        assertEquals("/namespaces", ResourceStores.storeFor("/api/v1/namespaces/demo"));
        assertEquals("/namespaces", ResourceStores.storeFor("/api/v1/namespaces/demo/status"));
        assertEquals("/nodes", ResourceStores.storeFor("/api/v1/nodes/node-a/status"));
        assertEquals("apps/deployments", ResourceStores.storeFor("/apis/apps/v1/namespaces/demo/deployments/web/status"));
        assertEquals("apps/deployments", ResourceStores.storeFor("/apis/apps/v1/deployments"));
        assertEquals("rbac.authorization.k8s.io/clusterroles",
                ResourceStores.storeFor("/apis/rbac.authorization.k8s.io/v1/clusterroles/view"));
        assertEquals("", ResourceStores.storeFor("/apis/example.com/v1/namespaces/demo/widgets/w"));
        assertEquals("", ResourceStores.storeFor("/apis/apiextensions.k8s.io/v1/customresourcedefinitions"));
        assertEquals("", ResourceStores.storeFor("/api/v1"));
        assertEquals("", ResourceStores.storeFor("/readyz"));
    }

    @Test void throughTheApiTheClusterIsOneStore() {
        try (Sandbox sandbox = new Sandbox(); KubernetesClient client = sandbox.add("east", 1, 1).newClient()) {
            client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName("demo").endMetadata().build()).create();
            client.configMaps().inNamespace("demo").resource(new ConfigMapBuilder().withNewMetadata().withName("same")
                    .endMetadata().addToData("k", "v").build()).create();
            client.secrets().inNamespace("demo").resource(new SecretBuilder().withNewMetadata().withName("same")
                    .endMetadata().addToStringData("k", "v").build()).create();

            assertEquals(List.of("same"), names(client.configMaps().inNamespace("demo").list().getItems()));
            assertEquals(List.of("same"), names(client.secrets().inAnyNamespace().list().getItems()));
            assertEquals("v", client.configMaps().inNamespace("demo").withName("same").get().getData().get("k"));
            client.secrets().inNamespace("demo").withName("same").delete();
            assertEquals(List.of("same"), names(client.configMaps().inAnyNamespace().list().getItems()));
            assertEquals(List.of(), names(client.secrets().inAnyNamespace().list().getItems()));
            assertEquals(List.of("demo"), names(client.namespaces().list().getItems()));
        }
    }

    @Test void aCustomResourceIsServedByItsDefinitionsScope() {
        try (Sandbox sandbox = new Sandbox(); KubernetesClient client = sandbox.add("east", 1, 1).newClient()) {
            client.apiextensions().v1().customResourceDefinitions().resource(new CustomResourceDefinitionBuilder()
                    .withNewMetadata().withName("gadgets.example.com").endMetadata()
                    .withNewSpec().withGroup("example.com").withScope("Cluster")
                    .withNewNames().withKind("Gadget").withPlural("gadgets").withSingular("gadget").endNames()
                    .addNewVersion().withName("v1").withServed(true).withStorage(true)
                    .withNewSubresources().withNewStatus().endStatus().endSubresources().endVersion()
                    .endSpec().build()).create();
            var gadgets = client.genericKubernetesResources(new ResourceDefinitionContext.Builder()
                    .withGroup("example.com").withVersion("v1").withKind("Gadget").withPlural("gadgets")
                    .withNamespaced(false).build());
            GenericKubernetesResource created = gadgets.resource(new GenericKubernetesResourceBuilder()
                    .withApiVersion("example.com/v1").withKind("Gadget").withNewMetadata().withName("g").endMetadata()
                    .addToAdditionalProperties("spec", Map.of("size", 1))
                    .addToAdditionalProperties("status", Map.of("ready", true)).build()).create();

            // With the status subresource declared, a create keeps no status: the store knew the definition.
            assertEquals(null, created.getAdditionalProperties().get("status"));
            assertEquals(List.of("g"), names(gadgets.list().getItems()));
        }
    }

    private static List<String> names(List<? extends io.fabric8.kubernetes.api.model.HasMetadata> items) {
        return items.stream().map(i -> i.getMetadata().getName()).sorted().toList();
    }
}
