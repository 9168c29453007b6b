package dev.windlass.policy.shard;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.windlass.policy.shard.ShardSpread.Replica;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

/**
 * Replicas that all follow {@link ShardSpread}, from any holding and any preferences, in any order of turns: every shard
 * always finds a holder, and within a few rounds every replica holds {@code floor} or {@code ceil} of
 * {@code shards / replicas} and nothing moves after that.
 */
class ShardSpreadProperties {
    static final Duration GRACE = Duration.ofSeconds(3);

    @Property(tries = 400)
    void anyStartSpreadsEvenlyAndThenStaysPut(@ForAll @IntRange(min = 1, max = 12) int shards, @ForAll @IntRange(min = 1, max = 5) int count,
                                              @ForAll long seed) {
        Random random = new Random(seed);
        List<String> names = new ArrayList<>();
        for (int i = 0; i < count; i++) names.add("r" + i);
        SortedMap<String, Replica> up = new TreeMap<>();
        for (String n : names) {
            TreeSet<Integer> preferred = new TreeSet<>();
            if (random.nextBoolean()) preferred.add(random.nextInt(shards));
            up.put(n, new Replica(true, preferred));
        }
        SortedMap<Integer, String> holders = new TreeMap<>();
        for (int s = 0; s < shards; s++) if (random.nextInt(3) > 0) holders.put(s, names.get(random.nextInt(count)));
        int[] freeRounds = new int[shards];
        int rounds = 0;
        int stableRounds = 0;
        while (stableRounds < 3) {
            assertTrue(++rounds <= shards + 10, "no even spread after " + rounds + " rounds: " + holders);
            SortedMap<Integer, String> before = new TreeMap<>(holders);
            List<String> turns = new ArrayList<>(names);
            Collections.shuffle(turns, random);
            for (String r : turns) {
                for (int s : new ShardSpread(shards, r, holders, up).toGiveUp()) holders.remove(s);
            }
            for (int s = 0; s < shards; s++) {
                if (holders.containsKey(s)) {
                    freeRounds[s] = 0;
                    continue;
                }
                Collections.shuffle(turns, random);
                for (String r : turns) {
                    Duration freeFor = Duration.ofSeconds(freeRounds[s]);
                    if (new ShardSpread(shards, r, holders, up).holdBack(s, freeFor, GRACE, false).isEmpty()) {
                        holders.put(s, r);
                        break;
                    }
                }
                if (!holders.containsKey(s)) freeRounds[s]++;
                assertTrue(freeRounds[s] <= GRACE.toSeconds(), "shard " + s + " left without a holder past the grace: " + holders);
            }
            stableRounds = before.equals(holders) && holders.size() == shards ? stableRounds + 1 : 0;
        }
        assertEquals(shards, holders.size(), "every shard held: " + holders);
        for (String r : names) {
            int held = (int) holders.values().stream().filter(r::equals).count();
            assertTrue(held == shards / count || held == (shards + count - 1) / count,
                    r + " holds " + held + " of " + shards + " with " + count + " replicas: " + holders);
        }
    }
}
