package dev.windlass.policy.shard;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.windlass.policy.model.Cluster;
import dev.windlass.policy.model.SourceLocation;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** Which shard owns a cluster: its pin, else rendezvous hashing of its name, the same on every replica. */
class ShardAssignmentTest {

    private static Cluster cluster(String name, Integer pin) {
        return new Cluster(name, Map.of(), new Cluster.Sandbox(1, 1), false, 60, SourceLocation.file("clusters/" + name + ".yaml"),
                Map.of(), pin);
    }

    private static Map<String, Cluster> fleet(int size) {
        Map<String, Cluster> out = new LinkedHashMap<>();
        for (int i = 0; i < size; i++) out.put("c" + i, cluster("c" + i, null));
        return out;
    }

    @Test void everyShardGetsAShareOfAFleet() {
        ShardAssignment a = ShardAssignment.of(3, fleet(300));
        Map<Integer, Integer> counts = new TreeMap<>();
        a.owners().values().forEach(s -> counts.merge(s, 1, Integer::sum));
        assertEquals(3, counts.size(), counts.toString());
        counts.values().forEach(n -> assertTrue(n > 60 && n < 140, "300 clusters over 3 shards: " + counts));
    }

    @Test void aClusterAddedOrRemovedMovesNoOther() {
        ShardAssignment before = ShardAssignment.of(3, fleet(50));
        Map<String, Cluster> more = fleet(60);
        more.remove("c7");
        ShardAssignment after = ShardAssignment.of(3, more);
        for (String c : more.keySet()) if (before.owners().containsKey(c)) assertEquals(before.ownerOf(c), after.ownerOf(c), c);
        assertEquals(-1, after.ownerOf("c7"));
    }

    @Test void aFourthShardTakesClustersOnlyForItself() {
        ShardAssignment three = ShardAssignment.of(3, fleet(200));
        ShardAssignment four = ShardAssignment.of(4, fleet(200));
        int moved = 0;
        for (String c : three.owners().keySet()) {
            if (three.ownerOf(c) != four.ownerOf(c)) {
                assertEquals(3, four.ownerOf(c), c + " moved, and not to the new shard");
                moved++;
            }
        }
        assertTrue(moved > 20 && moved < 80, "about a quarter of 200 clusters move to the new shard: " + moved);
    }

    @Test void aPinWinsAndWrapsAroundTheShardCount() {
        Map<String, Cluster> clusters = fleet(10);
        clusters.put("pinned", cluster("pinned", 1));
        clusters.put("far", cluster("far", 5));
        ShardAssignment a = ShardAssignment.of(3, clusters);
        assertEquals(1, a.ownerOf("pinned"));
        assertEquals(2, a.ownerOf("far"), "a pin past the shard count wraps around (5 mod 3)");
        assertEquals(0, ShardAssignment.of(1, clusters).ownerOf("pinned"), "one shard owns everything");
    }
}
