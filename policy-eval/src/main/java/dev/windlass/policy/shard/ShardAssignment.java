package dev.windlass.policy.shard;

import dev.windlass.policy.model.Cluster;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Collections;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Which shard owns each cluster. A Cluster with {@code spec.shard} is pinned to that shard (modulo the shard count, so a
 * pin never leaves a cluster without an owner); every other cluster goes to the shard with the highest score
 * {@code SHA-256(name + "/" + shard)} (rendezvous hashing). The rule reads only the cluster's name, its pin and the shard
 * count, so every replica computes the same owner from the same commit, and adding or removing a cluster never moves
 * another one; changing the shard count moves only the clusters whose best shard changed.
 */
public final class ShardAssignment {
    private final int shards;
    private final SortedMap<String, Integer> owners;

    private ShardAssignment(int shards, SortedMap<String, Integer> owners) {
        this.shards = shards;
        this.owners = Collections.unmodifiableSortedMap(owners);
    }

    public static ShardAssignment of(int shards, Map<String, Cluster> clusters) {
        if (shards < 1) throw new IllegalArgumentException("at least one shard, not " + shards);
        SortedMap<String, Integer> owners = new TreeMap<>();
        for (Cluster c : clusters.values()) owners.put(c.name(), c.shard() != null ? c.shard() % shards : hashed(c.name(), shards));
        return new ShardAssignment(shards, owners);
    }

    /** The shard with the highest score for this name: rendezvous hashing. */
    static int hashed(String cluster, int shards) {
        int best = 0;
        long bestScore = Long.MIN_VALUE;
        for (int shard = 0; shard < shards; shard++) {
            long score = score(cluster + "/" + shard);
            if (score > bestScore) {
                best = shard;
                bestScore = score;
            }
        }
        return best;
    }

    private static long score(String text) {
        try {
            byte[] d = MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
            long v = 0;
            for (int i = 0; i < 8; i++) v = (v << 8) | (d[i] & 0xff);
            return v;
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime has SHA-256", e);
        }
    }

    public int shards() { return shards; }

    /** The owning shard of each cluster Git lists, by name. */
    public SortedMap<String, Integer> owners() { return owners; }

    /** The owning shard, or -1 for a cluster Git does not list. */
    public int ownerOf(String cluster) { return owners.getOrDefault(cluster, -1); }
}
