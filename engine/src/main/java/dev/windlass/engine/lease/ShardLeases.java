package dev.windlass.engine.lease;

import dev.windlass.engine.reconcile.Shards;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.IntConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * This replica's candidacy for every shard's Lease: {@code <name>-shard-<n>} labelled {@code windlass.dev/shard: "<n>"},
 * each kept by its own fabric8 {@code LeaderElector} ({@link Leadership}). Every replica stands for every shard, so a
 * shard whose holder stops is taken by another within a lease duration. To spread the shards over the replicas, a
 * replica stands at once for its preferred shards and for the others one lease duration later each, in turn from an
 * offset its identity gives: at start each replica takes its own first, and the leftovers go to whoever comes to them.
 */
public final class ShardLeases implements Shards, AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(ShardLeases.class);

    private final List<Leadership> leases;
    private volatile SortedSet<Integer> pass = Collections.emptySortedSet();

    private ShardLeases(List<Leadership> leases) {
        this.leases = List.copyOf(leases);
    }

    /** The Lease name of a shard. */
    public static String leaseName(String name, int shard) { return name + "-shard-" + shard; }

    /**
     * Stands for {@code count} shards, {@code preferred} ones at once; {@code onTaken} runs (on an elector's thread, so it
     * must not block) each time this replica becomes a shard's holder.
     *
     * @param settings the timings and identity; its name is the prefix of every shard's Lease name
     */
    public static ShardLeases stand(KubernetesClient client, LeaseSettings settings, int count, SortedSet<Integer> preferred,
                                    IntConsumer onTaken) {
        if (count < 1) throw new IllegalArgumentException("at least one shard, not " + count);
        ExecutorService renewals = Executors.newFixedThreadPool(count, r -> {
            Thread t = new Thread(r, "windlass-lease");
            t.setDaemon(true);
            return t;
        });
        List<Leadership> leases = new ArrayList<>();
        for (int shard = 0; shard < count; shard++) {
            LeaseSettings s = new LeaseSettings(settings.namespace(), leaseName(settings.name(), shard), settings.identity(),
                    settings.leaseDuration(), settings.renewDeadline(), settings.retryPeriod(), settings.safetyMargin());
            leases.add(new Leadership(client, s, renewals, Integer.toString(shard)));
        }
        ShardLeases shards = new ShardLeases(leases);
        int offset = Math.floorMod(settings.identity().hashCode(), count);
        int rank = 0;
        for (int i = 0; i < count; i++) {
            int shard = (offset + i) % count;
            long delay = preferred.contains(shard) ? 0 : settings.leaseDuration().toMillis() * (preferred.isEmpty() ? rank++ : ++rank);
            Leadership lease = leases.get(shard);
            Runnable start = () -> lease.start(() -> onTaken.accept(shard));
            if (delay == 0) start.run();
            else CompletableFuture.delayedExecutor(delay, TimeUnit.MILLISECONDS).execute(start);
        }
        log.info("standing for {} shards as {}: at once for {}, the others one lease duration apart", count, settings.identity(),
                preferred.isEmpty() ? "shard " + offset : "shards " + preferred);
        return shards;
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
        for (int i = 0; i < leases.size(); i++) {
            Leadership l = leases.get(i);
            holders.add("shard " + i + ": " + (l.leading() ? "this replica" : l.holder().isEmpty() ? "no one known" : l.holder()));
        }
        return leases.get(0).settings().identity() + " holds " + writable().size() + " of " + leases.size() + " shards (" + String.join(", ", holders) + ")";
    }

    public List<Leadership> leases() { return leases; }

    /** Stops standing; every shard this replica holds is released, so others take over at once. */
    @Override public void close() {
        leases.forEach(Leadership::close);
        // The renewal threads are daemons and stay: the electors release their leases on them as they stop.
    }
}
