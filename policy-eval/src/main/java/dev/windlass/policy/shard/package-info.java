/**
 * Sharding the fleet by cluster: which shard owns which cluster ({@link dev.windlass.policy.shard.ShardAssignment}), and
 * what a replica holding some shards may act on and record ({@link dev.windlass.policy.shard.ShardScope}). Pure: the
 * engine's {@code lease} package says which shards a replica holds. See docs/architecture.md, "Shards".
 */
package dev.windlass.policy.shard;
