package dev.windlass.policy.shard;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * How the fleet's shards spread over the replicas that are up, as one replica sees it: which free shard it may take
 * now, and which of its own it gives up at a pass boundary so that every replica holds about {@code shards / replicas}.
 *
 * <p><b>Taking.</b> A replica takes a free shard (no holder, or one whose Lease expired) unless it already holds its
 * share, {@code ceil(shards / replicas up)}; or it has preferred shards, this is not one, and it has been up for less
 * than the settle time (the replica that prefers it may be starting too); or another replica that is up prefers that shard (its StatefulSet ordinal or
 * {@code --preferred-shards}) and holds less than its share; or another replica up holds less than
 * {@code floor(shards / replicas up)}. A shard left free for longer than the grace is taken by whoever comes first:
 * spreading never leaves a shard without a holder.
 *
 * <p><b>Giving up.</b> Only once every shard has a live holder, and counting only the replicas that have been up for a
 * settle time (a replica just started, or one about to fail, draws no shard away): a replica gives up what it holds
 * above {@code ceil(shards / replicas)}, or one shard when it holds more than {@code floor} and a settled replica holds
 * less. It keeps its preferred shards and the coordinator (shard 0) longest, and gives first what a replica holding
 * less prefers.
 *
 * @param shards   how many shards the fleet is cut into
 * @param me       this replica's identity
 * @param holders  the shards whose Lease a replica holds and renews, by shard; free and expired shards are absent
 * @param replicas every replica up (its presence renewed within a lease duration, in this replica's reading), this one
 *                 included
 */
public record ShardSpread(int shards, String me, SortedMap<Integer, String> holders, SortedMap<String, Replica> replicas) {

    /**
     * A replica that is up.
     *
     * @param settled   up for the settle time without a break, in this replica's reading (always true for this replica)
     * @param preferred the shards it prefers: a hint, never a requirement
     */
    public record Replica(boolean settled, SortedSet<Integer> preferred) {
        public Replica {
            preferred = Collections.unmodifiableSortedSet(new TreeSet<>(preferred));
        }
    }

    /** Why a replica holds back from a free shard. */
    public enum HoldBack {
        /** It has not read its own presence back yet, so it does not know whom the shards spread over (decided by the engine). */
        NOT_READY,
        /** It holds its share already. */
        AT_SHARE,
        /**
         * It has been up for less than the settle time and prefers other shards: this one waits, in case the replica that
         * prefers it is starting too and has not shown itself yet. Without it, two replicas started together could each
         * take the other's preferred shard and hold it for good, each at its share.
         */
        SETTLING,
        /** Another replica up prefers the shard and holds less than its share: the shard waits for it. */
        PREFERRED_BY_ANOTHER,
        /** Another replica up holds less than the smaller share: the shard waits for it. */
        ANOTHER_HOLDS_FEWER
    }

    public ShardSpread {
        if (shards < 1) throw new IllegalArgumentException("at least one shard, not " + shards);
        holders = Collections.unmodifiableSortedMap(new TreeMap<>(holders));
        SortedMap<String, Replica> up = new TreeMap<>(replicas);
        Replica self = up.get(me);
        up.put(me, new Replica(true, self == null ? new TreeSet<>() : self.preferred()));
        replicas = Collections.unmodifiableSortedMap(up);
    }

    /** How many shards {@code replica} holds. */
    public int held(String replica) {
        return (int) holders.values().stream().filter(replica::equals).count();
    }

    /** The shards this replica holds. */
    public SortedSet<Integer> mine() {
        SortedSet<Integer> out = new TreeSet<>();
        holders.forEach((shard, holder) -> { if (holder.equals(me)) out.add(shard); });
        return out;
    }

    /** The most a replica should hold with {@code count} replicas: {@code ceil(shards / count)}. */
    public int ceiling(int count) { return (shards + count - 1) / count; }

    /** The least a replica should hold with {@code count} replicas: {@code floor(shards / count)}. */
    public int floor(int count) { return shards / count; }

    /**
     * Why this replica holds back from the free {@code shard}, or empty: it takes it.
     *
     * @param freeFor how long the shard has been free in this replica's reading
     * @param grace   how long a free shard waits for the replica it is meant for before anyone takes it
     * @param settling whether this replica has been up for less than the settle time
     */
    public Optional<HoldBack> holdBack(int shard, Duration freeFor, Duration grace, boolean settling) {
        if (freeFor.compareTo(grace) >= 0) return Optional.empty();
        int count = replicas.size();
        int mine = held(me);
        if (mine >= ceiling(count)) return Optional.of(HoldBack.AT_SHARE);
        SortedSet<Integer> myPreferred = replicas.get(me).preferred();
        boolean iPrefer = myPreferred.contains(shard);
        if (settling && !iPrefer && !myPreferred.isEmpty()) return Optional.of(HoldBack.SETTLING);
        for (Map.Entry<String, Replica> r : replicas.entrySet()) {
            if (r.getKey().equals(me)) continue;
            if (!iPrefer && r.getValue().preferred().contains(shard) && held(r.getKey()) < ceiling(count)) {
                return Optional.of(HoldBack.PREFERRED_BY_ANOTHER);
            }
        }
        for (String other : replicas.keySet()) {
            if (!other.equals(me) && mine >= floor(count) && held(other) < floor(count)) return Optional.of(HoldBack.ANOTHER_HOLDS_FEWER);
        }
        return Optional.empty();
    }

    /** The shards this replica gives up at the next pass boundary, so that a settled replica holding less takes them. */
    public SortedSet<Integer> toGiveUp() {
        if (holders.size() < shards) return Collections.emptySortedSet();  // free shards first go to whoever holds less
        List<String> settled = replicas.entrySet().stream().filter(e -> e.getValue().settled()).map(Map.Entry::getKey).toList();
        int count = settled.size();
        SortedSet<Integer> mine = mine();
        int extra = mine.size() - ceiling(count);
        if (extra <= 0) {
            boolean anotherHoldsFewer = settled.stream().anyMatch(r -> !r.equals(me) && held(r) < floor(count));
            extra = mine.size() > floor(count) && anotherHoldsFewer ? 1 : 0;
        }
        if (extra <= 0) return Collections.emptySortedSet();
        SortedSet<Integer> wantedByOthers = new TreeSet<>();
        for (String r : settled) {
            if (!r.equals(me) && held(r) < ceiling(count)) wantedByOthers.addAll(replicas.get(r).preferred());
        }
        SortedSet<Integer> preferred = replicas.get(me).preferred();
        List<Integer> order = new ArrayList<>(mine);
        order.sort(Comparator.<Integer, Boolean>comparing(preferred::contains)      // my preferred ones last
                .thenComparing(s -> !wantedByOthers.contains(s))                   // what another wants first
                .thenComparing(s -> s == 0)                                        // the coordinator last
                .thenComparing(Comparator.reverseOrder()));                        // then the highest first
        return Collections.unmodifiableSortedSet(new TreeSet<>(order.subList(0, Math.min(extra, order.size()))));
    }
}
