package dev.windlass.engine.schedule;

import dev.windlass.engine.http.EngineHttp;
import dev.windlass.engine.http.EngineMetrics;
import dev.windlass.engine.reconcile.PassReport;
import dev.windlass.engine.reconcile.Reconciler;
import java.net.InetSocketAddress;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The running engine: passes on a schedule and on push webhooks, with /healthz telling how the last pass went. */
public final class Daemon implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(Daemon.class);

    private final PollSchedule schedule;
    private final EngineHttp http;
    private final AtomicReference<String> last = new AtomicReference<>("no pass yet");
    private final EngineMetrics metrics = new EngineMetrics();

    public Daemon(Reconciler reconciler, String branch, Duration interval, InetSocketAddress listen, String webhookSecret, Clock clock)
            throws Exception {
        this.schedule = new PollSchedule(interval, () -> pass(reconciler, clock));
        this.http = new EngineHttp(listen, branch, webhookSecret, schedule::runSoon, () -> "ok\nlast pass: " + last.get(), metrics::scrape);
    }

    public Daemon start() throws Exception {
        http.start();
        schedule.start();
        return this;
    }

    public int port() { return http.port(); }

    private void pass(Reconciler reconciler, Clock clock) {
        long start = System.nanoTime();
        try {
            PassReport r = reconciler.reconcile();
            metrics.passed(r, Duration.ofNanos(System.nanoTime() - start));
            r.events().forEach(e -> log.info("{}", e.text()));
            last.set(clock.instant() + " source " + r.source().substring(0, 7) + ", " + r.applied().results().size()
                    + " actions, " + r.applied().failures() + " failed");
        } catch (Exception e) {
            metrics.failed(Duration.ofNanos(System.nanoTime() - start));
            log.error("pass failed: {}", e.getMessage());
            last.set(clock.instant() + " failed: " + e.getMessage());
        }
    }

    @Override public void close() throws Exception {
        try {
            http.close();
        } finally {
            schedule.close();
        }
    }
}
