package dev.windlass.engine.http;

import dev.windlass.engine.reconcile.PassReport;
import dev.windlass.policy.plan.ActionResult;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Timer;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * What the engine does, as Prometheus metrics on {@code GET /metrics}: passes and how long they take,
 * actions by operation and outcome, status commits, and how much is held or invalid right now.
 */
public final class EngineMetrics {
    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final AtomicInteger held = new AtomicInteger();
    private final AtomicInteger invalidApps = new AtomicInteger();
    private final Timer duration = Timer.builder("windlass.reconcile.duration").description("time one reconcile pass takes").register(registry);

    public EngineMetrics() {
        registry.gauge("windlass.held.actions", held);
        registry.gauge("windlass.invalid.applications", invalidApps);
    }

    public void passed(PassReport r, Duration took) {
        duration.record(took);
        passes("ok").increment();
        for (ActionResult a : r.applied().results()) {
            Counter.builder("windlass.actions").description("actions executed, by operation and outcome")
                    .tag("operation", a.action().operation().name()).tag("outcome", a.outcome().name()).register(registry).increment();
        }
        if (r.committed()) Counter.builder("windlass.status.commits").description("commits to the status branch").register(registry).increment();
        held.set(r.plan().held().size());
        invalidApps.set((int) r.plan().apps().stream().filter(a -> !a.valid()).count());
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
