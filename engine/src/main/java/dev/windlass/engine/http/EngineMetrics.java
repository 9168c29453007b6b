package dev.windlass.engine.http;

import dev.windlass.engine.reconcile.PassReport;
import dev.windlass.policy.plan.ActionResult;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Timer;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import dev.windlass.policy.shard.ShardScope;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What the engine does, as Prometheus metrics on {@code GET /metrics}: passes and how long they take,
 * actions by operation and outcome, status commits, and how much is held or invalid right now.
 */
public final class EngineMetrics {
    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final AtomicInteger held = new AtomicInteger();
    private final AtomicInteger invalidApps = new AtomicInteger();
    private final Map<String, AtomicInteger> shardGauges = new ConcurrentHashMap<>();
    private final Timer duration = Timer.builder("windlass.reconcile.duration").description("time one reconcile pass takes").register(registry);

    public EngineMetrics() {
        registry.gauge("windlass.held.actions", held);
        registry.gauge("windlass.invalid.applications", invalidApps);
    }

    public void passed(PassReport r, Duration took) {
        duration.record(took);
        passes("ok").increment();
        if (r.skipped()) {
            Counter.builder("windlass.passes.skipped").description("passes skipped: nothing they read had moved since a pass that left the fleet at rest")
                    .register(registry).increment();
        }
        for (ActionResult a : r.applied().results()) {
            Counter.builder("windlass.actions").description("actions executed, by operation and outcome")
                    .tag("operation", a.action().operation().name()).tag("outcome", a.outcome().name()).register(registry).increment();
        }
        if (r.committed()) Counter.builder("windlass.status.commits").description("commits to the status branch").register(registry).increment();
        held.set(r.plan().held().size());
        invalidApps.set((int) r.plan().apps().stream().filter(a -> !a.valid()).count());
        if (r.shards() != null) shards(r.shards(), r);
    }

    /**
     * Per shard: whether this replica holds it ({@code windlass_shard_held}), how many clusters it owns
     * ({@code windlass_shard_clusters}), passes this replica ran for it, actions on its clusters by outcome, and when this
     * replica last finished a pass for it ({@code windlass_shard_last_pass_seconds}, epoch seconds).
     */
    private void shards(ShardScope scope, PassReport r) {
        int count = scope.assignment().shards();
        Map<Integer, Integer> clusters = new TreeMap<>();
        scope.assignment().owners().values().forEach(s -> clusters.merge(s, 1, Integer::sum));
        for (int shard = 0; shard < count; shard++) {
            shardGauge("windlass.shard.clusters", "clusters the shard owns", shard).set(clusters.getOrDefault(shard, 0));
        }
        for (int shard : scope.held()) {
            Counter.builder("windlass.shard.passes").description("passes this replica ran for the shard").tag("shard", Integer.toString(shard))
                    .register(registry).increment();
            shardGauge("windlass.shard.last.pass.seconds", "when this replica last finished a pass for the shard (epoch seconds)", shard)
                    .set((int) (System.currentTimeMillis() / 1000));
        }
        for (ActionResult a : r.applied().results()) {
            Counter.builder("windlass.shard.actions").description("actions executed on the shard's clusters, by outcome")
                    .tag("shard", Integer.toString(scope.assignment().ownerOf(a.action().cluster()))).tag("outcome", a.outcome().name())
                    .register(registry).increment();
        }
    }

    /**
     * Who holds what, read from the Leases at each scrape (not from the last pass, so a replica that holds no shard and
     * runs no pass says so too): per shard, 1 while this replica holds it ({@code windlass_shard_held}); the shards it
     * holds ({@code windlass_shards_held}); and the replicas up as it reads their presence ({@code windlass_replicas_up}).
     * Scraped from every replica, they say which replica holds which shard.
     */
    public void watchShards(java.util.function.Supplier<dev.windlass.policy.shard.ShardSpread> spread) {
        int count = spread.get().shards();
        for (int shard = 0; shard < count; shard++) {
            int s = shard;
            io.micrometer.core.instrument.Gauge.builder("windlass.shard.held", () -> spread.get().mine().contains(s) ? 1 : 0)
                    .description("1 while this replica holds the shard's Lease").tag("shard", Integer.toString(shard)).register(registry);
        }
        io.micrometer.core.instrument.Gauge.builder("windlass.shards.held", () -> spread.get().mine().size())
                .description("shards whose Lease this replica holds").register(registry);
        io.micrometer.core.instrument.Gauge.builder("windlass.replicas.up", () -> spread.get().replicas().size())
                .description("replicas up (this one included), as this replica reads their presence Leases").register(registry);
    }

    private AtomicInteger shardGauge(String name, String description, int shard) {
        return shardGauges.computeIfAbsent(name + "/" + shard, k -> {
            AtomicInteger value = new AtomicInteger();
            io.micrometer.core.instrument.Gauge.builder(name, value, AtomicInteger::get).description(description)
                    .tag("shard", Integer.toString(shard)).register(registry);
            return value;
        });
    }

    public void failed(Duration took) {
        duration.record(took);
        passes("failed").increment();
    }

    private Counter passes(String result) {
        return Counter.builder("windlass.reconcile.passes").description("reconcile passes, by result").tag("result", result).register(registry);
    }

    /** The Prometheus text format. */
    public String scrape() { return registry.scrape(); }
}
