package dev.windlass.policy.state;

import dev.windlass.policy.model.ObjectRef;

/** One object Windlass applied to a cluster for an application, with the hash of what it sent. */
public record InventoryEntry(String apiVersion, String kind, String namespace, String name, String hash, String gc) {

    public ObjectRef ref() {
        return new ObjectRef(ObjectRef.groupOf(apiVersion), kind, namespace, name);
    }
}
