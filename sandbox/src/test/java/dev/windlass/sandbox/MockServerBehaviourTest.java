package dev.windlass.sandbox;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.DeletionPropagation;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.api.model.apps.DeploymentStatusBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What the CRUD store does and does not do, measured through the client, so the engine's authors can rely on it. */
class MockServerBehaviourTest {

    private Sandbox sandbox;
    private KubernetesClient client;

    @BeforeEach void start() {
        sandbox = new Sandbox();
        client = sandbox.add("east", 1, 1).newClient();
    }

    @AfterEach void stop() {
        client.close();
        sandbox.close();
    }

    @Test void createFillsInServerSideMetadataButNoManagedFields() {
        Deployment created = client.apps().deployments().resource(deployment()).create();
        var meta = created.getMetadata();
        assertEquals(1L, meta.getGeneration());
        assertNotNull(meta.getResourceVersion());
        assertNotNull(meta.getUid());
        assertNotNull(meta.getCreationTimestamp());
        assertEquals("default", meta.getNamespace());
        assertTrue(meta.getManagedFields().isEmpty());
    }

    @Test void resourceVersionMovesOnChangeOnlyAndAStaleOneConflicts() {
        Deployment created = client.apps().deployments().resource(deployment()).create();
        Deployment same = client.apps().deployments().resource(created).update();
        assertEquals(created.getMetadata().getResourceVersion(), same.getMetadata().getResourceVersion());

        created.getSpec().setReplicas(5);
        Deployment changed = client.apps().deployments().resource(created).update();
        assertNotEquals(created.getMetadata().getResourceVersion(), changed.getMetadata().getResourceVersion());
        assertEquals(2L, changed.getMetadata().getGeneration());

        created.getSpec().setReplicas(6); // still carries the first resourceVersion
        KubernetesClientException e = assertThrows(KubernetesClientException.class,
                () -> client.apps().deployments().resource(created).update());
        assertEquals(409, e.getCode());
    }

    @Test void statusSubresourceWritesOnlyStatusAndKeepsTheGeneration() {
        Deployment created = client.apps().deployments().resource(deployment()).create();
        created.setStatus(new DeploymentStatusBuilder().withReadyReplicas(1).build());
        created.getSpec().setReplicas(9);
        Deployment after = client.apps().deployments().resource(created).updateStatus();
        assertEquals(1, after.getStatus().getReadyReplicas());
        assertEquals(1, after.getSpec().getReplicas());
        assertEquals(1L, after.getMetadata().getGeneration());
    }

    @Test void aPlainUpdateOverwritesStatusForBuiltInKinds() {
        Deployment created = client.apps().deployments().resource(deployment()).create();
        created.setStatus(new DeploymentStatusBuilder().withReadyReplicas(1).build());
        Deployment withStatus = client.apps().deployments().resource(created).updateStatus();
        withStatus.setStatus(null);
        withStatus.getMetadata().setLabels(java.util.Map.of("touched", "yes"));
        assertNull(client.apps().deployments().resource(withStatus).update().getStatus());
    }

    @Test void watchDeliversAddedModifiedDeleted() throws Exception {
        BlockingQueue<String> events = new LinkedBlockingQueue<>();
        try (Watch ignored = client.configMaps().watch(new Watcher<>() {
            @Override public void eventReceived(Action action, ConfigMap cm) {
                events.add(action + " " + cm.getMetadata().getName());
            }

            @Override public void onClose(WatcherException cause) {}
        })) {
            client.configMaps().resource(new ConfigMapBuilder().withNewMetadata().withName("w").endMetadata()
                    .addToData("k", "1").build()).create();
            client.configMaps().withName("w").edit(cm -> new ConfigMapBuilder(cm).addToData("k", "2").build());
            client.configMaps().withName("w").delete();
            assertEquals("ADDED w", events.poll(5, TimeUnit.SECONDS));
            assertEquals("MODIFIED w", events.poll(5, TimeUnit.SECONDS));
            assertEquals("DELETED w", events.poll(5, TimeUnit.SECONDS));
        }
    }

    @Test void deleteWithAPropagationPolicyRemovesAtOnceButOwnedObjectsStay() {
        Deployment owner = client.apps().deployments().resource(deployment()).create();
        client.configMaps().resource(new ConfigMapBuilder().withNewMetadata().withName("owned")
                .addNewOwnerReference().withApiVersion("apps/v1").withKind("Deployment").withName("web")
                .withUid(owner.getMetadata().getUid()).endOwnerReference().endMetadata().build()).create();

        var deleted = client.apps().deployments().withName("web")
                .withPropagationPolicy(DeletionPropagation.FOREGROUND).delete();
        assertEquals(1, deleted.size());
        assertNull(client.apps().deployments().withName("web").get());
        assertNotNull(client.configMaps().withName("owned").get(), "no garbage collector");
    }

    @Test void aFinalizerKeepsTheObjectWithADeletionTimestamp() {
        client.configMaps().resource(new ConfigMapBuilder().withNewMetadata().withName("held")
                .addToFinalizers("windlass.dev/cleanup").endMetadata().build()).create();
        client.configMaps().withName("held").withPropagationPolicy(DeletionPropagation.BACKGROUND).delete();
        ConfigMap held = client.configMaps().withName("held").get();
        assertNotNull(held.getMetadata().getDeletionTimestamp());
    }

    @Test void dryRunIsIgnoredAndPersists() {
        client.apps().deployments().resource(deployment()).dryRun().create();
        assertNotNull(client.apps().deployments().withName("web").get());
    }

    @Test void serverSideApplyIsNotSupported() {
        KubernetesClientException missing = assertThrows(KubernetesClientException.class,
                () -> client.apps().deployments().resource(deployment()).serverSideApply());
        assertEquals(404, missing.getCode(), "apply does not create");
        client.apps().deployments().resource(deployment()).create();
        KubernetesClientException existing = assertThrows(KubernetesClientException.class,
                () -> client.apps().deployments().resource(deployment()).serverSideApply());
        assertEquals(415, existing.getCode());
    }

    @Test void versionIsServed() {
        assertEquals("1", client.getKubernetesVersion().getMajor());
        assertEquals("33", client.getKubernetesVersion().getMinor());
        assertEquals(List.of(), client.configMaps().list().getItems());
    }

    private static Deployment deployment() {
        return new DeploymentBuilder()
                .withNewMetadata().withName("web").endMetadata()
                .withNewSpec().withReplicas(1).withNewSelector().addToMatchLabels("app", "web").endSelector()
                .withNewTemplate().withNewMetadata().addToLabels("app", "web").endMetadata()
                .withNewSpec().addNewContainer().withName("main").withImage("nginx:1.27").endContainer().endSpec()
                .endTemplate().endSpec().build();
    }
}
