/**
 * Observing a cluster at the start of a pass: the objects Windlass manages (per kind, by label), namespaces and
 * nodes, read through the connection's {@link dev.windlass.applier.reads.ClusterReads} (from watches in the engine),
 * and the health of each object in the terms users expect from GitOps tools.
 */
package dev.windlass.applier.observe;
