/**
 * How the applier reads a cluster: a {@link dev.windlass.applier.reads.Query} names what one LIST asks for, and a
 * {@link dev.windlass.applier.reads.ClusterReads} answers it, either by asking the API server every time
 * ({@link dev.windlass.applier.reads.DirectReads}) or from a watch kept open per query
 * ({@link dev.windlass.applier.reads.WatchCache}), which answers only once it is known to hold the engine's own writes.
 */
package dev.windlass.applier.reads;
