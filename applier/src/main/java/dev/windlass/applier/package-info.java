/**
 * The applier: observes the fleet's clusters and executes a plan's stages on them, every cluster in parallel
 * and each bounded by its own deadline, so that one dead or slow cluster never holds up the others.
 */
package dev.windlass.applier;
