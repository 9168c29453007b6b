package dev.windlass.applier.inventory;

import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;

/**
 * The namespace the inventories live in ({@value InventoryConfigMaps#NAMESPACE}), made sure of once per cluster's
 * stage rather than once per inventory created: a first sync of N applications read it N times. Applications applied
 * side by side wait for the first to have made sure of it.
 */
public final class SystemNamespace {

    private volatile boolean present;

    /** Reads it unless known to exist, and creates it when absent; the first caller does, the others wait for it. */
    void ensure(KubernetesClient client) {
        if (present) return;
        synchronized (this) {
            if (!present) lookOrCreate(client);
        }
    }

    private void lookOrCreate(KubernetesClient client) {
        // Read first: creating needs a permission an installation may rightly withhold once the namespace exists.
        if (client.namespaces().withName(InventoryConfigMaps.NAMESPACE).get() == null) {
            try {
                client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(InventoryConfigMaps.NAMESPACE)
                        .endMetadata().build()).create();
            } catch (KubernetesClientException e) {
                if (e.getCode() != 409) throw e;
            }
        }
        present = true;
    }
}
