package dev.windlass.applier;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.Map;
import java.util.function.Supplier;
import org.slf4j.MDC;

/**
 * A bounded pool for per-cluster work where each task has its own deadline, counted from when the task starts
 * rather than when it was queued: a cluster waiting for a free thread is not charged for others' slowness.
 */
final class DeadlinePool implements AutoCloseable {

    private final ExecutorService workers;
    private final ScheduledExecutorService alarms;

    DeadlinePool(int threads) {
        this.workers = Executors.newFixedThreadPool(threads, daemons("windlass-applier-"));
        this.alarms = Executors.newSingleThreadScheduledExecutor(daemons("windlass-applier-deadline-"));
    }

    /**
     * Completes with {@code work}'s result, or with {@code onTimeout}'s if the work is still running at the
     * deadline, in which case the work's thread is interrupted (blocked client calls then fail) and its
     * eventual result is dropped. A {@code work} that throws completes the future exceptionally. The work logs with
     * the caller's log context (MDC: the pass it belongs to).
     */
    <T> CompletableFuture<T> submit(Supplier<T> work, Duration deadline, Supplier<T> onTimeout) {
        CompletableFuture<T> result = new CompletableFuture<>();
        Map<String, String> context = MDC.getCopyOfContextMap();
        workers.execute(() -> {
            if (context != null) MDC.setContextMap(context);
            Thread worker = Thread.currentThread();
            Object lock = new Object();
            boolean[] finished = {false};
            ScheduledFuture<?> alarm = alarms.schedule(() -> {
                // Under the lock so the interrupt can never hit the thread once it has moved on to other work.
                synchronized (lock) {
                    if (!finished[0] && result.complete(onTimeout.get())) worker.interrupt();
                }
            }, deadline.toMillis(), TimeUnit.MILLISECONDS);
            try {
                result.complete(work.get());
            } catch (RuntimeException e) {
                result.completeExceptionally(e);
            } finally {
                synchronized (lock) {
                    finished[0] = true;
                }
                alarm.cancel(false);
                Thread.interrupted();
                MDC.clear();
            }
        });
        return result;
    }

    @Override public void close() {
        workers.shutdownNow();
        alarms.shutdownNow();
    }

    private static ThreadFactory daemons(String prefix) {
        AtomicInteger count = new AtomicInteger();
        return r -> {
            Thread t = new Thread(r, prefix + count.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
    }
}
