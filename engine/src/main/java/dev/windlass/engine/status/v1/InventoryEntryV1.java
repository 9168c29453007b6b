package dev.windlass.engine.status.v1;

import dev.windlass.policy.model.Manifest.GcPolicy;
import dev.windlass.policy.state.InventoryEntry;

/** One applied object of a target ({@code inventory:}); {@code gc} is its gc policy's word (OnAppUpdate, OnAppDelete, Never). */
public record InventoryEntryV1(String apiVersion, String kind, String namespace, String name, String hash, String gc) {
    static InventoryEntryV1 of(InventoryEntry e) {
        return new InventoryEntryV1(e.apiVersion(), e.kind(), e.namespace(), e.name(), e.hash(), e.gc() == null ? null : e.gc().word());
    }

    InventoryEntry toDomain() {
        GcPolicy policy = GcPolicy.ofWord(gc);
        if (gc != null && policy == null) {
            throw new IllegalArgumentException("targets[].inventory[].gc: '" + gc + "' is not one of OnAppUpdate, OnAppDelete, Never");
        }
        return new InventoryEntry(apiVersion, kind, namespace, name, hash, policy);
    }
}
