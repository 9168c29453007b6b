package dev.windlass.sandbox;

import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.api.model.apps.DeploymentStatusBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * JSON merge patch behaves as RFC 7386 says (the applier relies on it; the sandbox applies it in front of the CRUD
 * store, whose own merge appends to lists and keeps nulls). Strategic merge patch is refused with 415.
 */
class PatchTest {

    private Sandbox sandbox;
    private KubernetesClient client;

    @BeforeEach void start() {
        sandbox = new Sandbox();
        client = sandbox.add("east", 1, 1).newClient();
        client.apps().deployments().resource(new DeploymentBuilder()
                .withNewMetadata().withName("web").addToLabels("app", "web").addToLabels("tier", "front").endMetadata()
                .withNewSpec().withReplicas(2).withNewSelector().addToMatchLabels("app", "web").endSelector()
                .withNewTemplate().withNewMetadata().addToLabels("app", "web").endMetadata()
                .withNewSpec().addNewContainer().withName("main").withImage("nginx:1.27").endContainer().endSpec()
                .endTemplate().endSpec().build()).create();
        Deployment withStatus = client.apps().deployments().withName("web").get();
        withStatus.setStatus(new DeploymentStatusBuilder().withReadyReplicas(2).withObservedGeneration(1L).build());
        client.apps().deployments().resource(withStatus).updateStatus();
    }

    @AfterEach void stop() {
        client.close();
        sandbox.close();
    }

    @Test void jsonMergePatchMergesMapsReplacesListsRemovesNullsAndKeepsStatus() {
        Deployment patched = client.apps().deployments().withName("web").patch(PatchContext.of(PatchType.JSON_MERGE),
                """
                {"metadata":{"labels":{"owner":"windlass","tier":null}},
                 "spec":{"replicas":4,"template":{"spec":{"containers":[{"name":"main","image":"nginx:1.28"}]}}}}""");

        assertEquals(Map.of("app", "web", "owner", "windlass"), patched.getMetadata().getLabels());
        assertEquals(4, patched.getSpec().getReplicas());
        var containers = patched.getSpec().getTemplate().getSpec().getContainers();
        assertEquals(1, containers.size(), "a list in the patch replaces the list");
        assertEquals("nginx:1.28", containers.get(0).getImage());
        assertEquals(Map.of("app", "web"), patched.getSpec().getSelector().getMatchLabels());
        assertEquals(2L, patched.getMetadata().getGeneration());
        assertEquals(2, patched.getStatus().getReadyReplicas());
        assertEquals(patched, client.apps().deployments().withName("web").get());
    }

    @Test void aStaleResourceVersionInTheMergePatchConflictsAndAMissingObjectIsNotFound() {
        KubernetesClientException stale = assertThrows(KubernetesClientException.class,
                () -> client.apps().deployments().withName("web").patch(PatchContext.of(PatchType.JSON_MERGE),
                        "{\"metadata\":{\"resourceVersion\":\"1\"},\"spec\":{\"replicas\":7}}"));
        assertEquals(409, stale.getCode());
        KubernetesClientException missing = assertThrows(KubernetesClientException.class,
                () -> client.apps().deployments().withName("nope").patch(PatchContext.of(PatchType.JSON_MERGE),
                        "{\"spec\":{\"replicas\":7}}"));
        assertEquals(404, missing.getCode());
    }

    @Test void mergePatchOfTheStatusSubresourceTouchesOnlyStatus() {
        Deployment patched = client.apps().deployments().withName("web").subresource("status")
                .patch(PatchContext.of(PatchType.JSON_MERGE),
                        "{\"spec\":{\"replicas\":9},\"status\":{\"replicas\":2}}");
        assertEquals(2, patched.getSpec().getReplicas());
        assertEquals(2, patched.getStatus().getReplicas());
        assertEquals(2, patched.getStatus().getReadyReplicas());
        assertEquals(1L, patched.getMetadata().getGeneration());
    }

    @Test void aMetadataOnlyMergePatchDoesNotBumpTheGeneration() {
        Deployment patched = client.apps().deployments().withName("web").patch(PatchContext.of(PatchType.JSON_MERGE),
                "{\"metadata\":{\"annotations\":{\"windlass.dev/hash\":\"abc\"}}}");
        assertEquals(1L, patched.getMetadata().getGeneration());
        assertEquals("abc", patched.getMetadata().getAnnotations().get("windlass.dev/hash"));
    }

    @Test void strategicMergePatchIsUnsupportedMediaType() {
        KubernetesClientException e = assertThrows(KubernetesClientException.class,
                () -> client.apps().deployments().withName("web").patch(PatchContext.of(PatchType.STRATEGIC_MERGE),
                        "{\"spec\":{\"replicas\":3}}"));
        assertEquals(415, e.getCode());
        assertFalse(client.apps().deployments().withName("web").get().getSpec().getReplicas() == 3);
    }
}
