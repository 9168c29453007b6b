package dev.windlass.engine.status.v1;

import dev.windlass.policy.state.InventoryEntry;

/** One applied object of a target ({@code inventory:}); {@code gc} is its gc policy's word (OnAppUpdate, OnAppDelete, Never). */
public record InventoryEntryV1(String apiVersion, String kind, String namespace, String name, String hash, String gc) {
    static InventoryEntryV1 of(InventoryEntry e) {
        return new InventoryEntryV1(e.apiVersion(), e.kind(), e.namespace(), e.name(), e.hash(), e.gc());
    }

    InventoryEntry toDomain() { return new InventoryEntry(apiVersion, kind, namespace, name, hash, gc); }
}
