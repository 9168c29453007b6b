package dev.windlass.policy.state;

import dev.windlass.policy.model.ObjectRef;

/** One object Windlass applied to a cluster for an application, with the hash of what it sent. */
public record InventoryEntry(String apiVersion, String kind, String namespace, String name, String hash, String gc) {

    /** The entry recording {@code m} as applied: its identity, the hash sent, and its gc policy by name. */
    public static InventoryEntry of(dev.windlass.policy.model.Manifest m) {
        String gc = switch (m.gcPolicy()) {
            case ON_APP_UPDATE -> "OnAppUpdate";
            case ON_APP_DELETE -> "OnAppDelete";
            case NEVER -> "Never";
        };
        return new InventoryEntry(m.apiVersion(), m.ref().kind(), m.ref().namespace(), m.ref().name(), m.hash(), gc);
    }

    public ObjectRef ref() {
        return new ObjectRef(ObjectRef.groupOf(apiVersion), kind, namespace, name);
    }
}
