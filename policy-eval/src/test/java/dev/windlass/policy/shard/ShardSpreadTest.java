package dev.windlass.policy.shard;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.windlass.policy.shard.ShardSpread.HoldBack;
import dev.windlass.policy.shard.ShardSpread.Replica;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/** Which free shard a replica takes and which of its own it gives up: the cases an operator meets. */
class ShardSpreadTest {
    static final Duration GRACE = Duration.ofSeconds(15);

    static SortedMap<Integer, String> holders(String... byShard) {
        SortedMap<Integer, String> out = new TreeMap<>();
        for (int i = 0; i < byShard.length; i++) if (byShard[i] != null) out.put(i, byShard[i]);
        return out;
    }

    static Replica settled(Integer... preferred) { return new Replica(true, new TreeSet<>(Set.of(preferred))); }

    static Replica fresh() { return new Replica(false, new TreeSet<>()); }

    @Test void aSettledNewcomerDrawsOneShardFromEachOfTwoReplicasHoldingThreeOfSix() {
        SortedMap<Integer, String> h = holders("a", "a", "a", "b", "b", "b");
        Map<String, Replica> up = Map.of("a", settled(), "b", settled(), "c", settled());
        assertEquals(Set.of(2), new ShardSpread(6, "a", h, new TreeMap<>(up)).toGiveUp());
        assertEquals(Set.of(5), new ShardSpread(6, "b", h, new TreeMap<>(up)).toGiveUp());
        h.remove(2);
        assertEquals(Optional.empty(), new ShardSpread(6, "c", h, new TreeMap<>(up)).holdBack(2, Duration.ZERO, GRACE, false));
        assertEquals(Optional.of(HoldBack.AT_SHARE), new ShardSpread(6, "a", h, new TreeMap<>(up)).holdBack(2, Duration.ZERO, GRACE, false),
                "the replica that gave the shard up does not take it back");
    }

    @Test void aNewcomerNotYetSettledDrawsNothingAway() {
        SortedMap<Integer, String> h = holders("a", "a", "a", "b", "b", "b");
        TreeMap<String, Replica> up = new TreeMap<>(Map.of("a", settled(), "b", settled(), "c", fresh()));
        assertEquals(Set.of(), new ShardSpread(6, "a", h, up).toGiveUp());
    }

    @Test void afterAKillTheTwoLeftTakeThreeEach() {
        SortedMap<Integer, String> h = holders("a", "a", "b", "b", null, null);
        TreeMap<String, Replica> up = new TreeMap<>(Map.of("a", settled(), "b", settled()));
        assertEquals(Optional.empty(), new ShardSpread(6, "a", h, up).holdBack(4, Duration.ZERO, GRACE, false));
        h.put(4, "a");
        assertEquals(Optional.of(HoldBack.AT_SHARE), new ShardSpread(6, "a", h, up).holdBack(5, Duration.ZERO, GRACE, false));
        assertEquals(Optional.empty(), new ShardSpread(6, "b", h, up).holdBack(5, Duration.ZERO, GRACE, false));
    }

    @Test void noShardIsGivenUpWhileOneIsFree() {
        SortedMap<Integer, String> h = holders("a", "a", "a", "a", null, "b");
        TreeMap<String, Replica> up = new TreeMap<>(Map.of("a", settled(), "b", settled()));
        assertEquals(Set.of(), new ShardSpread(6, "a", h, up).toGiveUp());
    }

    @Test void aPreferredShardWaitsForTheReplicaThatPrefersItUntilTheGraceEnds() {
        SortedMap<Integer, String> h = holders("a", "b", null);
        TreeMap<String, Replica> up = new TreeMap<>(Map.of("a", settled(0), "b", settled(1), "c", settled(2)));
        assertEquals(Optional.of(HoldBack.AT_SHARE), new ShardSpread(3, "a", h, up).holdBack(2, Duration.ZERO, GRACE, false));
        SortedMap<Integer, String> two = holders(null, null, null, null);
        TreeMap<String, Replica> pair = new TreeMap<>(Map.of("a", settled(0), "b", settled(1)));
        assertEquals(Optional.of(HoldBack.PREFERRED_BY_ANOTHER), new ShardSpread(4, "a", two, pair).holdBack(1, Duration.ZERO, GRACE, false));
        assertEquals(Optional.empty(), new ShardSpread(4, "a", two, pair).holdBack(1, GRACE, GRACE, false), "after the grace, whoever comes");
        assertEquals(Optional.empty(), new ShardSpread(4, "a", two, pair).holdBack(2, Duration.ZERO, GRACE, false), "nobody prefers 2");
    }

    @Test void twoReplicasStartedTogetherTakeEachItsOwnPreferredShardNotTheOthers() {
        // b has not shown itself to a yet, nor a to b: each sees only itself, and shards 0 and 1 free.
        SortedMap<Integer, String> free = holders(null, null);
        TreeMap<String, Replica> onlyA = new TreeMap<>(Map.of("a", settled(0)));
        TreeMap<String, Replica> onlyB = new TreeMap<>(Map.of("b", settled(1)));
        assertEquals(Optional.empty(), new ShardSpread(2, "a", free, onlyA).holdBack(0, Duration.ZERO, GRACE, true));
        assertEquals(Optional.of(HoldBack.SETTLING), new ShardSpread(2, "a", free, onlyA).holdBack(1, Duration.ZERO, GRACE, true),
                "b may be starting too: its shard waits while a settles");
        assertEquals(Optional.of(HoldBack.SETTLING), new ShardSpread(2, "b", free, onlyB).holdBack(0, Duration.ZERO, GRACE, true));
        assertEquals(Optional.empty(), new ShardSpread(2, "a", holders("a", null), onlyA).holdBack(1, Duration.ZERO, GRACE, false),
                "once settled, a lone replica takes what nobody up prefers");
        assertEquals(Optional.empty(), new ShardSpread(2, "c", free, new TreeMap<>(Map.of("c", settled()))).holdBack(1, Duration.ZERO, GRACE, true),
                "a replica that prefers nothing takes any shard at once");
    }

    @Test void aFreeShardWaitsForAReplicaHoldingLessThanTheSmallerShare() {
        // 7 shards, 3 replicas: shares of 2 and 3. b holds 1: the free shard is b's, not a's.
        SortedMap<Integer, String> h = holders("a", "a", "b", "c", "c", "c", null);
        TreeMap<String, Replica> up = new TreeMap<>(Map.of("a", settled(), "b", settled(), "c", settled()));
        assertEquals(Optional.of(HoldBack.ANOTHER_HOLDS_FEWER), new ShardSpread(7, "a", h, up).holdBack(6, Duration.ZERO, GRACE, false));
        assertEquals(Optional.empty(), new ShardSpread(7, "b", h, up).holdBack(6, Duration.ZERO, GRACE, false));
    }

    @Test void moreReplicasThanShardsLeavesTheSpareOnesIdleWithoutChurn() {
        SortedMap<Integer, String> h = holders("a", "b");
        TreeMap<String, Replica> up = new TreeMap<>(Map.of("a", settled(), "b", settled(), "c", settled()));
        assertEquals(Set.of(), new ShardSpread(2, "a", h, up).toGiveUp());
        assertEquals(Set.of(), new ShardSpread(2, "b", h, up).toGiveUp());
    }

    @Test void aReplicaKeepsItsPreferredShardsAndTheCoordinatorLongest() {
        SortedMap<Integer, String> h = holders("a", "a", "a", "a", "a", "a");
        TreeMap<String, Replica> up = new TreeMap<>(Map.of("a", settled(5), "b", settled(), "c", settled()));
        assertEquals(Set.of(1, 2, 3, 4), new ShardSpread(6, "a", h, up).toGiveUp());
        TreeMap<String, Replica> wanting = new TreeMap<>(Map.of("a", settled(5), "b", settled(0), "c", settled()));
        assertEquals(Set.of(0, 2, 3, 4), new ShardSpread(6, "a", h, wanting).toGiveUp(), "what b prefers goes first, even the coordinator");
    }

    @Test void aLoneReplicaTakesEveryShard() {
        SortedMap<Integer, String> h = holders("a", "a", null, null);
        TreeMap<String, Replica> up = new TreeMap<>(Map.of("a", settled(0)));
        assertEquals(Optional.empty(), new ShardSpread(4, "a", h, up).holdBack(3, Duration.ZERO, GRACE, false));
        assertEquals(Optional.empty(), new ShardSpread(4, "a", holders("a", "a", "a", null), new TreeMap<>()).holdBack(3, Duration.ZERO, GRACE, false),
                "this replica counts itself even before it sees its own presence");
    }
}
