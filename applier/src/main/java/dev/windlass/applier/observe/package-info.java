/**
 * Observing a cluster at the start of a pass: the objects Windlass manages (one LIST per kind, by label),
 * namespaces and nodes, and the health of each object in the terms users expect from GitOps tools.
 */
package dev.windlass.applier.observe;
