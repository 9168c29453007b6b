package dev.windlass.engine.reconcile;

import dev.windlass.policy.fence.WriteFence;
import java.util.SortedSet;

/**
 * The shards of the fleet and which of them this replica may write for now. As a {@link WriteFence} it answers for the
 * shards of the pass in flight ({@link #passOn}): it refuses once any of their leases may no longer be relied on, so every
 * cluster write and status commit of the pass is fenced on the lease of the shard that owns the cluster (and on the
 * leases of the pass's other shards: a pass records all its shards in one commit).
 */
public interface Shards extends WriteFence {

    /** How many shards the fleet is cut into. */
    int count();

    /** The shards whose lease this replica holds with its write fence open, now. */
    SortedSet<Integer> writable();

    /** The shards the pass starting now acts for: the fence answers for these until the next call. */
    void passOn(SortedSet<Integer> shards);

    /**
     * Where the passes run: {@code boundary} runs what it is given between two passes, never during one. A replica gives
     * up a shard there to spread the shards over the replicas, with no write of its own in flight.
     */
    default void spreadBetweenPasses(java.util.function.Consumer<Runnable> boundary) {}

    /** Who holds which shard, as this replica last saw it, in one line. */
    String describe();
}
