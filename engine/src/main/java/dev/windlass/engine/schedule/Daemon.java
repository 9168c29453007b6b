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
import dev.windlass.git.CommitOutcome;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

/**
 * The running engine: passes on a schedule and on push webhooks, {@code /healthz} saying whether the pass loop moves,
 * {@code /readyz} whether a pass succeeded recently, and a shutdown that lets the pass in flight finish.
 */
public final class Daemon implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(Daemon.class);

    private final PollSchedule schedule;
    private final EngineHttp http;
    private final PassHealth health;
    private final EngineMetrics metrics = new EngineMetrics();

    /** What {@code /metrics} serves. */
    public EngineMetrics metrics() { return metrics; }
    /** Held for the whole of a pass and its reviews: shutdown waits on it. */
    private final ReentrantLock passing = new ReentrantLock();
    private volatile boolean stopping;
    private final HeapTrim heap = HeapTrim.process();
    private boolean closed;  // guarded by this

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
        this(reconciler, reviews, branch, interval, listen, webhookSecret, clock, null);
    }

    /** @param readyWithin how recent the last successful pass must be for {@code /readyz}; null: three poll intervals */
    public Daemon(Reconciler reconciler, ReviewPass reviews, String branch, Duration interval, InetSocketAddress listen, String webhookSecret,
                  Clock clock, Duration readyWithin) throws Exception {
        this(reconciler, reviews, branch, interval, listen, webhookSecret, clock, readyWithin, null);
    }

    /** @param pages served on the same listener for every path the daemon does not answer itself (the dashboard); null: none */
    public Daemon(Reconciler reconciler, ReviewPass reviews, String branch, Duration interval, InetSocketAddress listen, String webhookSecret,
                  Clock clock, Duration readyWithin, org.eclipse.jetty.server.Handler pages) throws Exception {
        this.health = new PassHealth(clock, readyWithin);
        this.schedule = new PollSchedule(interval != null ? interval : Settings.DEFAULT.interval(), () -> {
            if (stopping) return;
            passing.lock();
            try {
                if (stopping) return;
                PassReport r = pass(reconciler);
                if (r != null && interval == null) schedule().every(r.desired().settings().interval());
                // Reviews speak for the whole fleet: with shards, the coordinator's (the holder of shard 0) are the ones posted.
                if (r != null && reviews != null && (r.shards() == null || r.shards().coordinator())) review(reviews, r);
                heap.afterPass();
            } finally {
                passing.unlock();
            }
        });
        this.http = new EngineHttp(listen, branch, webhookSecret, schedule::runSoon, () -> health.liveness(interval()),
                () -> health.readiness(interval()), metrics::scrape, pages);
    }

    private PollSchedule schedule() { return schedule; }

    /** {@code /readyz} answers 503 while {@code unknown} says why (the state of a lease this replica stands for is not known yet). */
    public Daemon readyOnlyWhen(java.util.function.Supplier<java.util.Optional<String>> unknown) {
        health.readyOnlyWhen(unknown);
        return this;
    }

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

    private PassReport pass(Reconciler reconciler) {
        long start = System.nanoTime();
        health.passStarted();
        try {
            PassReport r = reconciler.reconcile();
            metrics.passed(r, Duration.ofNanos(System.nanoTime() - start));
            try (MDC.MDCCloseable pass = MDC.putCloseable("pass", r.source().substring(0, 7))) {
                r.events().forEach(e -> log.info("{}", dev.windlass.policy.plan.EventLine.of(e)));
            }
            String summary = "source " + r.source().substring(0, 7) + ", " + r.applied().results().size() + " actions, "
                    + r.applied().failures() + " failed";
            if (r.status() instanceof CommitOutcome.Failed f) {
                log.warn("the status commit failed: {}", f.reason());
                health.passFailed("the status commit failed: " + f.reason());
            } else {
                health.passSucceeded(summary);
            }
            return r;
        } catch (PassAbandoned e) {
            // A replica without the lease stands by; one that lost it mid-pass stopped writing. Neither is a failed pass.
            log.info("{}", e.getMessage());
            health.standingBy(e.getMessage());
            return null;
        } catch (Exception e) {
            // The reconciler has logged it, with its stack trace.
            metrics.failed(Duration.ofNanos(System.nanoTime() - start));
            health.passFailed(e.getMessage() == null ? e.toString() : e.getMessage());
            return null;
        }
    }

    /**
     * Stops scheduling passes, waits up to {@code grace} for the pass in flight (and its reviews) to finish, then stops
     * the HTTP listener and the scheduler. True when no pass was left running. A pass still running after the grace is
     * left to the process's exit, which is as safe as a crash: every step that must be recorded before it is applied
     * already is.
     */
    public boolean shutdown(Duration grace) throws Exception {
        synchronized (this) {
            if (closed) return true;
            closed = true;
        }
        stopping = true;
        health.stopping();
        schedule.pause();
        boolean finished;
        try {
            finished = passing.tryLock(grace.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            finished = false;
        }
        try {
            http.close();
        } finally {
            schedule.close(finished);
            if (finished) passing.unlock();
        }
        return finished;
    }

    /** Stops the daemon, waiting for the pass in flight as long as it takes. */
    @Override public void close() throws Exception {
        shutdown(Duration.ofDays(1));
    }
}
