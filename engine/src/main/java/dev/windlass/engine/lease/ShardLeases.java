package dev.windlass.engine.lease;

import dev.windlass.engine.reconcile.Shards;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.SortedSet;
import java.util.TreeSet;
import dev.windlass.policy.shard.ShardSpread;
import dev.windlass.policy.shard.ShardSpread.HoldBack;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import java.util.function.IntConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * This replica's candidacy for every shard's Lease: {@code <name>-shard-<n>} labelled {@code windlass.dev/shard: "<n>"},
 * each kept by its own fabric8 {@code LeaderElector} ({@link Leadership}). Every replica stands for every shard, so a
 * shard whose holder stops is taken by another within a lease duration.
 *
 * <p><b>Spreading.</b> Each ready replica also keeps a presence Lease ({@link ReplicaPresence}), so every replica knows
 * which others are up. A free shard is taken only by a replica that holds less than its share ({@link ShardSpread}, which
 * decides), and, by a replica up for less than the settle time, only if it prefers that shard or prefers none, and, between two passes, a replica that holds more than its share gives the extra up once another replica
 * has been up for a settle time (half a lease duration); the one holding fewer takes it. A shard left free for a lease
 * duration is taken by whoever comes first: spreading never leaves a shard without a holder.
 */
public final class ShardLeases implements Shards, AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(ShardLeases.class);

    private final LeaseSettings settings;
    private final List<Leadership> leases = new ArrayList<>();
    private final ReplicaPresence presence;
    private final ScheduledExecutorService ticks;
    private final ExecutorService spreading;
    private final Map<Integer, Long> taking = new HashMap<>();              // guarded by this: shards being taken, since (nanos)
    private final Map<Integer, Optional<HoldBack>> lastSaid = new HashMap<>();  // guarded by this: the last decision logged, by shard
    private final AtomicBoolean spreadQueued = new AtomicBoolean();
    private volatile Consumer<Runnable> betweenPasses;
    private volatile SortedSet<Integer> pass = Collections.emptySortedSet();

    private ShardLeases(KubernetesClient client, LeaseSettings settings, int count, SortedSet<Integer> preferred, IntConsumer onTaken) {
        this.settings = settings;
        this.presence = new ReplicaPresence(client, settings, preferred, System::nanoTime);
        ExecutorService renewals = Executors.newFixedThreadPool(count, daemon("windlass-lease"));
        for (int shard = 0; shard < count; shard++) {
            LeaseSettings s = new LeaseSettings(settings.namespace(), leaseName(settings.name(), shard), settings.identity(),
                    settings.leaseDuration(), settings.renewDeadline(), settings.retryPeriod(), settings.safetyMargin());
            int n = shard;
            leases.add(new Leadership(client, s, renewals, Integer.toString(shard), freeFor -> mayTake(n, freeFor)));
        }
        this.ticks = Executors.newSingleThreadScheduledExecutor(daemon("windlass-presence"));
        this.spreading = Executors.newSingleThreadExecutor(daemon("windlass-spread"));
        ticks.execute(this::tick);
        for (int shard = 0; shard < count; shard++) {
            int n = shard;
            leases.get(shard).start(() -> taken(n, onTaken));
        }
    }

    private static java.util.concurrent.ThreadFactory daemon(String name) {
        return r -> {
            Thread t = new Thread(r, name);
            t.setDaemon(true);
            return t;
        };
    }

    /** The Lease name of a shard. */
    public static String leaseName(String name, int shard) { return name + "-shard-" + shard; }

    /**
     * Stands for {@code count} shards; {@code onTaken} runs (on an elector's thread, so it must not block) each time this
     * replica becomes a shard's holder. Shards are given up to spread them only once {@link #spreadBetweenPasses} says
     * where a pass boundary is.
     *
     * @param settings  the timings and identity; its name is the prefix of every shard's Lease name
     * @param preferred the shards this replica prefers (a hint): a free one waits a little for a replica that prefers it
     */
    public static ShardLeases stand(KubernetesClient client, LeaseSettings settings, int count, SortedSet<Integer> preferred,
                                    IntConsumer onTaken) {
        if (count < 1) throw new IllegalArgumentException("at least one shard, not " + count);
        ShardLeases shards = new ShardLeases(client, settings, count, preferred, onTaken);
        log.info("standing for {} shards as {}{}", count, settings.identity(), preferred.isEmpty() ? "" : ", preferring shards " + preferred);
        return shards;
    }

    /**
     * Where this replica's passes run: {@code boundary} runs what it is given between two passes (never during one), so
     * a shard given up to spread them is handed over like any other, with no write of this replica's in flight.
     */
    @Override public void spreadBetweenPasses(Consumer<Runnable> boundary) { this.betweenPasses = boundary; }

    private void taken(int shard, IntConsumer onTaken) {
        synchronized (this) {
            taking.remove(shard);
        }
        onTaken.accept(shard);
    }

    /** Every third of a lease duration: this replica's presence, the others', and whether it holds more than its share. */
    private void tick() {
        try {
            turn();
        } finally {
            try {
                ticks.schedule(this::tick, presence.period().toMillis(), TimeUnit.MILLISECONDS);
            } catch (java.util.concurrent.RejectedExecutionException stopped) {
                // Closed: no next turn.
            }
        }
    }

    private void turn() {
        try {
            presence.tick(unknown().isEmpty());
            Consumer<Runnable> boundary = betweenPasses;
            if (boundary == null || spread(true).toGiveUp().isEmpty() || !spreadQueued.compareAndSet(false, true)) return;
            spreading.execute(() -> {
                try {
                    boundary.accept(this::giveUpExtra);
                } finally {
                    spreadQueued.set(false);
                }
            });
        } catch (RuntimeException e) {
            log.warn("{}: spreading the shards failed this turn: {}", settings.describe(), e.toString());
        }
    }

    /**
     * How long another replica must have been up before this one gives it a shard: half a lease duration, so it has
     * renewed its presence at least once and it is not a process that failed as it started.
     */
    Duration settleTime() { return settings.leaseDuration().dividedBy(2); }

    /** Between two passes: gives up what this replica holds above its share, decided again now. */
    private void giveUpExtra() {
        ShardSpread spread = spread(true);
        SortedSet<Integer> extra = spread.toGiveUp();
        if (extra.isEmpty()) return;
        log.info("{} holds {} of {} shards with {} replicas up: giving up shard{} {} between passes", settings.identity(),
                spread.mine().size(), leases.size(), spread.replicas().size(), extra.size() == 1 ? "" : "s", extra);
        for (int shard : extra) leases.get(shard).release();
    }

    /** Whether this replica takes {@code shard}, free for {@code freeFor}: asked by the shard's lock before the elector writes. */
    private synchronized boolean mayTake(int shard, Duration freeFor) {
        Optional<HoldBack> holdBack = !presence.sawItself() && freeFor.compareTo(settings.leaseDuration()) < 0
                ? Optional.of(HoldBack.NOT_READY)  // whom the shards spread over is not known yet: that comes first
                : spread(false).holdBack(shard, freeFor, settings.leaseDuration(), presence.upFor().compareTo(settleTime()) < 0);
        if (!holdBack.equals(lastSaid.put(shard, holdBack))) {
            if (holdBack.isPresent()) log.info("{}: shard {} is free; {} holds back ({})", settings.describe(), shard, settings.identity(), holdBack.get());
            else log.info("{}: shard {} is free; {} takes it", settings.describe(), shard, settings.identity());
        }
        if (holdBack.isPresent()) return false;
        taking.put(shard, System.nanoTime());
        return true;
    }

    /**
     * The shards' holders and the replicas up, as this replica reads them now; a shard it is taking counts as its own for
     * a renew deadline.
     *
     * @param settledOnly whether replicas count only once settled (giving up), or as soon as they are up (taking)
     */
    public synchronized ShardSpread spread(boolean settledOnly) {
        SortedMap<Integer, String> holders = new TreeMap<>();
        long now = System.nanoTime();
        taking.values().removeIf(since -> Duration.ofNanos(now - since).compareTo(settings.renewDeadline()) > 0);
        for (int shard = 0; shard < leases.size(); shard++) {
            Optional<String> holder = leases.get(shard).liveHolder();
            if (holder.isPresent()) holders.put(shard, holder.get());
            else if (taking.containsKey(shard)) holders.put(shard, settings.identity());
        }
        SortedMap<String, ShardSpread.Replica> up = presence.up(settledOnly ? settleTime() : Duration.ZERO);
        return new ShardSpread(leases.size(), settings.identity(), holders, up);
    }
    @Override public int count() { return leases.size(); }

    @Override public SortedSet<Integer> writable() {
        SortedSet<Integer> out = new TreeSet<>();
        for (int i = 0; i < leases.size(); i++) if (leases.get(i).refusal().isEmpty()) out.add(i);
        return out;
    }

    /** Whether every shard's Lease has been read once: this replica knows which it holds and which others hold. */
    public Optional<String> unknown() {
        for (Leadership l : leases) if (!l.known()) return Optional.of("the state of " + l.settings().describe() + " is not known yet");
        return Optional.empty();
    }

    @Override public void passOn(SortedSet<Integer> shards) { pass = Collections.unmodifiableSortedSet(new TreeSet<>(shards)); }

    @Override public Optional<String> refusal() {
        SortedSet<Integer> shards = pass;
        if (shards.isEmpty()) return Optional.of(leases.get(0).settings().identity() + " writes for no shard now");
        for (int shard : shards) {
            Optional<String> refused = leases.get(shard).refusal();
            if (refused.isPresent()) return refused;
        }
        return Optional.empty();
    }

    @Override public String describe() {
        List<String> holders = new ArrayList<>();
        int up = presence.up(Duration.ZERO).size();
        for (int i = 0; i < leases.size(); i++) {
            Leadership l = leases.get(i);
            holders.add("shard " + i + ": " + (l.leading() ? "this replica" : l.holder().isEmpty() ? "no one known" : l.holder()));
        }
        return leases.get(0).settings().identity() + " holds " + writable().size() + " of " + leases.size() + " shards, " + up + " replica"
                + (up == 1 ? "" : "s") + " up (" + String.join(", ", holders) + ")";
    }

    public List<Leadership> leases() { return leases; }

    /**
     * Stops standing: this replica's presence goes first (so the others count it out), then every shard it holds is
     * released, so others take over at once.
     */
    @Override public void close() {
        ticks.shutdownNow();
        spreading.shutdownNow();
        presence.leave();
        leases.forEach(Leadership::close);
        // The renewal threads are daemons and stay: the electors release their leases on them as they stop.
    }
}
