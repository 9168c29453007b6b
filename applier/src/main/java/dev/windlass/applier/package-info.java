/**
 * The applier: observes the fleet's clusters, executes a plan's stages on them and dry-runs them, every cluster
 * in parallel and each bounded by its own deadline, so that one dead or slow cluster never holds up the others.
 */
package dev.windlass.applier;
