package dev.windlass.policy.plan;

/**
 * What an action does to one object on one cluster. {@code Orphan} lets go of an object without
 * deleting it (gc policy {@code Never}): Windlass's labels and annotations are removed, the object stays.
 * Remediation actions have no application ({@code app} is "") and are never recorded in an inventory.
 */
public enum Operation {
    Create, Update, Delete, Orphan,
    /** A JSON merge patch ({@link Action#desired()}'s body) on an object Windlass does not manage: a remediation mark, a cordon, a restart. */
    Patch,
    /** Evicts every pod from a node (the object), through the eviction API, so disruption budgets hold. */
    Drain
}
