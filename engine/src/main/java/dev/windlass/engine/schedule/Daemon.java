package dev.windlass.engine.schedule;

import dev.windlass.engine.http.EngineHttp;
import dev.windlass.engine.http.EngineMetrics;
import dev.windlass.engine.reconcile.PassAbandoned;
import dev.windlass.engine.reconcile.PassReport;
import dev.windlass.engine.reconcile.Reconciler;
import dev.windlass.engine.review.ReviewPass;
import java.net.InetSocketAddress;
import java.time.Clock;
import dev.windlass.policy.model.Settings;
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
        this(reconciler, null, branch, interval, listen, webhookSecret, clock);
    }

    /**
     * @param reviews  plans reviewed branches after each pass of the main branch; null: no reviews
     * @param interval how often to poll; null: as the config repo's Settings say ({@code spec.interval}, 30 s when
     *                 unset), read again after every pass
     */
    public Daemon(Reconciler reconciler, ReviewPass reviews, String branch, Duration interval, InetSocketAddress listen, String webhookSecret,
                  Clock clock) throws Exception {
        this.schedule = new PollSchedule(interval != null ? interval : Settings.DEFAULT.interval(), () -> {
            PassReport r = pass(reconciler, clock);
            if (r != null && interval == null) schedule().every(r.desired().settings().interval());
            if (r != null && reviews != null) review(reviews, r);
        });
        this.http = new EngineHttp(listen, branch, webhookSecret, schedule::runSoon, () -> "ok\nlast pass: " + last.get(), metrics::scrape);
    }

    private PollSchedule schedule() { return schedule; }

    /** The poll interval now. */
    public Duration interval() { return schedule.interval(); }

    public Daemon start() throws Exception {
        http.start();
        schedule.start();
        return this;
    }

    public int port() { return http.port(); }

    /** Asks for a pass now (after the running one, if any): a replica that just took the lease over does not wait an interval. */
    public void runSoon() { schedule.runSoon(); }

    /** Reviews never stop reconciling: their trouble is logged and tried again on the next pass. */
    private static void review(ReviewPass reviews, PassReport main) {
        try {
            reviews.run(main.source(), main.desired());
        } catch (Exception e) {
            log.error("reviews failed: {}", e.getMessage(), e);
        }
    }

    private PassReport pass(Reconciler reconciler, Clock clock) {
        long start = System.nanoTime();
        try {
            PassReport r = reconciler.reconcile();
            metrics.passed(r, Duration.ofNanos(System.nanoTime() - start));
            try (org.slf4j.MDC.MDCCloseable pass = org.slf4j.MDC.putCloseable("pass", r.source().substring(0, 7))) {
                r.events().forEach(e -> log.info("{}", e.text()));
            }
            last.set(clock.instant() + " source " + r.source().substring(0, 7) + ", " + r.applied().results().size()
                    + " actions, " + r.applied().failures() + " failed");
            return r;
        } catch (PassAbandoned e) {
            // A replica without the lease stands by; one that lost it mid-pass stopped writing. Neither is a failed pass.
            log.info("{}", e.getMessage());
            last.set(clock.instant() + " " + e.getMessage());
            return null;
        } catch (Exception e) {
            // The reconciler has logged it, with its stack trace.
            metrics.failed(Duration.ofNanos(System.nanoTime() - start));
            last.set(clock.instant() + " failed: " + e.getMessage());
            return null;
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
