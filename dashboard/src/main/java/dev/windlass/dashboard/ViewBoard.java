package dev.windlass.dashboard;

import dev.windlass.policy.state.ClusterState;
import dev.windlass.policy.state.Reachability;

import dev.windlass.policy.failover.AppFailover;
import dev.windlass.policy.state.ClusterStatus;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;

/**
 * Where the engine publishes its view after each pass, and what the dashboard remembers across passes that the status
 * branch does not keep: each cluster's reachability pass by pass, and the stretches during which a due failover was
 * blocked. Memory is bounded ({@link #SAMPLES} samples a cluster, {@link #BLOCKS} stretches an application).
 */
public final class ViewBoard {
    public static final int SAMPLES = 120;
    public static final int BLOCKS = 20;

    /** One pass's look at a cluster. */
    public record Sample(Instant at, Reachability reachability, ClusterState health, String message) {}

    /** A stretch of passes during which a failover was due and could not happen. */
    public record Blocked(Instant from, Instant until, String reason, String message) {}

    private volatile FleetView latest;
    private volatile java.util.function.Supplier<dev.windlass.policy.shard.ShardSpread> shards;
    private volatile long passes;
    private final Map<String, Deque<Sample>> reachability = new HashMap<>();
    private final Map<String, List<Blocked>> blocked = new HashMap<>();

    /** The engine's pass, once it has ended. */
    public synchronized void publish(FleetView view) {
        for (ClusterStatus c : view.state().clusters().values()) {
            Deque<Sample> samples = reachability.computeIfAbsent(c.name(), k -> new ArrayDeque<>());
            samples.addLast(new Sample(view.at(), c.reachability(), c.health(), c.message()));
            while (samples.size() > SAMPLES) samples.removeFirst();
        }
        reachability.keySet().retainAll(view.state().clusters().keySet());
        for (Map.Entry<String, AppFailover> e : view.plan().failovers().entrySet()) {
            AppFailover f = e.getValue();
            if (f.blocked() == null) continue;
            List<Blocked> spans = blocked.computeIfAbsent(e.getKey(), k -> new ArrayList<>());
            Blocked last = spans.isEmpty() ? null : spans.get(spans.size() - 1);
            String reason = f.blockedReason() == null ? "Blocked" : f.blockedReason().name();
            // The same reason, blocked on the pass just before too: the stretch goes on (its words are the latest).
            boolean continues = last != null && last.reason().equals(reason) && latest != null && last.until().equals(latest.at());
            if (continues) spans.set(spans.size() - 1, new Blocked(last.from(), view.at(), reason, f.blocked()));
            else spans.add(new Blocked(view.at(), view.at(), reason, f.blocked()));
            while (spans.size() > BLOCKS) spans.remove(0);
        }
        blocked.keySet().retainAll(view.desired().apps().keySet());
        latest = view;
        passes++;
    }

    /** The reviews the engine read after a pass's reviews ran; they ride on the latest view. */
    public synchronized void reviews(SortedMap<String, String> reviews) {
        if (latest != null) latest = latest.withReviews(reviews);
        passes++;
    }

    private volatile java.util.function.Supplier<List<AlertPanel.Row>> alerts;

    /** Where the engine's alert deliveries are read, as last recorded (never waiting for a pass). */
    public void alerts(java.util.function.Supplier<List<AlertPanel.Row>> deliveries) { this.alerts = deliveries; }

    /** The alert deliveries as last recorded, oldest first; none on an engine without alerts. */
    public List<AlertPanel.Row> alertRows() {
        var a = alerts;
        return a == null ? List.of() : a.get();
    }

    /** Where a sharded replica reads who holds which shard now (the Leases, not a pass's view). */
    public void shards(java.util.function.Supplier<dev.windlass.policy.shard.ShardSpread> spread) { this.shards = spread; }

    /** Who holds which shard now, or null on an engine without shards. */
    public dev.windlass.policy.shard.ShardSpread shardSpread() {
        var s = shards;
        return s == null ? null : s.get();
    }

    /** The latest view, or null before the first pass ended. */
    public FleetView latest() { return latest; }

    /** How many times something was published: the pages' live script reloads when it changes. */
    public long version() { return passes; }

    public synchronized List<Sample> reachability(String cluster) {
        Deque<Sample> s = reachability.get(cluster);
        return s == null ? List.of() : List.copyOf(s);
    }

    public synchronized List<Blocked> blocked(String app) {
        return List.copyOf(blocked.getOrDefault(app, List.of()));
    }
}
