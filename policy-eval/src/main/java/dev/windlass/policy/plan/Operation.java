package dev.windlass.policy.plan;

/**
 * What an action does to one object on one cluster. {@code Orphan} lets go of an object without
 * deleting it (gc policy {@code Never}): Windlass's labels and annotations are removed, the object stays.
 */
public enum Operation { Create, Update, Delete, Orphan }
