package dev.windlass.policy.state;

import java.time.Instant;
import java.util.List;

/**
 * An application on one cluster: what is applied there and how it is doing.
 *
 * @param unhealthySince  since when the application has been Degraded (or Missing after it was applied) here;
 *                        null while it is not. A failover's toleration clock, kept here so a restart neither resets it nor counts twice
 * @param observedState   the values its failover policy's state rules read here on the last pass, so a cluster
 *                        that stops answering still has them to carry over
 * @param injectedState   values a failover carried here from the cluster it left, put as labels on the objects they were read from
 * @param variant         for a rendered application, the variant this cluster got; null for a plain one
 * @param rendered        for a rendered application, the hash of what was rendered for this cluster and applied here: its
 *                        revision on this cluster. A new revision of the application that renders the same objects here
 *                        leaves it unchanged, and a rollout passes this cluster by. Null for a plain application
 * @param retry           writes here that failed, and when they are tried again; null when the last ones went through
 */
public record TargetStatus(String cluster, String revision, Sync sync, Health health, String message,
                           List<String> drift, List<InventoryEntry> inventory, Instant unhealthySince,
                           List<PreservedValue> observedState, List<PreservedValue> injectedState, String variant,
                           String rendered, Retry retry) {

    public TargetStatus(String cluster, String revision, Sync sync, Health health, String message,
                        List<String> drift, List<InventoryEntry> inventory, Instant unhealthySince,
                        List<PreservedValue> observedState, List<PreservedValue> injectedState, String variant, String rendered) {
        this(cluster, revision, sync, health, message, drift, inventory, unhealthySince, observedState, injectedState, variant, rendered, null);
    }

    public TargetStatus(String cluster, String revision, Sync sync, Health health, String message,
                        List<String> drift, List<InventoryEntry> inventory, Instant unhealthySince,
                        List<PreservedValue> observedState, List<PreservedValue> injectedState) {
        this(cluster, revision, sync, health, message, drift, inventory, unhealthySince, observedState, injectedState, null, null);
    }

    public TargetStatus(String cluster, String revision, Sync sync, Health health, String message,
                        List<String> drift, List<InventoryEntry> inventory) {
        this(cluster, revision, sync, health, message, drift, inventory, null, List.of(), List.of());
    }

    public TargetStatus {
        drift = drift == null ? List.of() : List.copyOf(drift);
        inventory = inventory == null ? List.of() : List.copyOf(inventory);
        message = message == null ? "" : message;
        observedState = observedState == null ? List.of() : List.copyOf(observedState);
        injectedState = injectedState == null ? List.of() : List.copyOf(injectedState);
        variant = variant == null || variant.isEmpty() ? null : variant;
        rendered = rendered == null || rendered.isEmpty() ? null : rendered;
    }

    /** The same target, naming the variant it got and the hash of what was rendered for it. */
    public TargetStatus withVariant(String name, String renderedHash) {
        return new TargetStatus(cluster, revision, sync, health, message, drift, inventory, unhealthySince, observedState, injectedState, name,
                renderedHash, retry);
    }

    /** The same target, with its writes' retry set (null: none waits). */
    public TargetStatus withRetry(Retry r) {
        return new TargetStatus(cluster, revision, sync, health, message, drift, inventory, unhealthySince, observedState, injectedState, variant,
                rendered, r);
    }

    /** The same target with its failover memory set. */
    public TargetStatus withFailover(Instant unhealthySince, List<PreservedValue> observedState, List<PreservedValue> injectedState) {
        return new TargetStatus(cluster, revision, sync, health, message, drift, inventory, unhealthySince, observedState, injectedState,
                variant, rendered, retry);
    }
}
