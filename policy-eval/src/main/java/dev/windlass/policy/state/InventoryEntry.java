package dev.windlass.policy.state;

import dev.windlass.policy.model.Manifest.GcPolicy;
import dev.windlass.policy.model.ObjectRef;

/**
 * One object Windlass applied to a cluster for an application, with the hash of what it sent. A Secret's entry has no
 * hash (""): the record is kept on the status branch and in a ConfigMap on the cluster, where whoever may read it but
 * not the Secret could otherwise confirm a guessed value by hashing it.
 */
public record InventoryEntry(String apiVersion, String kind, String namespace, String name, String hash, GcPolicy gc) {

    /** The entry recording {@code m} as applied: its identity, the hash sent (none for a Secret), and its gc policy. */
    public static InventoryEntry of(dev.windlass.policy.model.Manifest m) {
        GcPolicy gc = m.gcPolicy();
        boolean secret = m.ref().group().isEmpty() && m.ref().kind().equals("Secret");
        return new InventoryEntry(m.apiVersion(), m.ref().kind(), m.ref().namespace(), m.ref().name(), secret ? "" : m.hash(), gc);
    }

    /** Whether the entry was applied with gc policy {@code p}. */
    public boolean gcIs(GcPolicy p) { return gc == p; }

    public ObjectRef ref() {
        return new ObjectRef(ObjectRef.groupOf(apiVersion), kind, namespace, name);
    }
}
