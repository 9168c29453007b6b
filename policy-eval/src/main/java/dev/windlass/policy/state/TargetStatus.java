package dev.windlass.policy.state;

import java.util.List;

/** An application on one cluster: what is applied there and how it is doing. */
public record TargetStatus(String cluster, String revision, String sync, String health, String message,
                           List<String> drift, List<InventoryEntry> inventory) {
    public TargetStatus {
        drift = drift == null ? List.of() : List.copyOf(drift);
        inventory = inventory == null ? List.of() : List.copyOf(inventory);
        message = message == null ? "" : message;
    }
}
