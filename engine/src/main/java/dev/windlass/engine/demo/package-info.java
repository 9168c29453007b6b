/** {@code windlass demo}: the example repo reconciled onto three embedded sandbox clusters, told as a story. */
package dev.windlass.engine.demo;
