package dev.windlass.sandbox.sim;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/** Runs simulator rounds on one daemon thread, each with the instant the clock gives at that moment. */
final class TickTimer {

    private static final Logger log = LoggerFactory.getLogger(TickTimer.class);

    private final ScheduledExecutorService executor;

    TickTimer(Duration period, Clock clock, Consumer<java.time.Instant> tick) {
        if (period.isNegative() || period.isZero()) {
            throw new IllegalArgumentException("period must be positive");
        }
        executor = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "sandbox-simulator");
            t.setDaemon(true);
            return t;
        });
        executor.scheduleWithFixedDelay(() -> {
            try {
                tick.accept(clock.instant());
            } catch (RuntimeException e) {
                // An exception would cancel the schedule for good; one bad round must not end the demo.
                log.warn("simulator round failed: {}", e.toString());
            }
        }, 0, period.toMillis(), TimeUnit.MILLISECONDS);
    }

    void stop() {
        executor.shutdownNow();
        try {
            executor.awaitTermination(2, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
