package dev.windlass.applier;

import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.MDC;

/**
 * The threads that apply applications side by side within one cluster ({@link ClusterRun}). How many run at once is
 * bounded per cluster by its run, so the pool itself only reuses threads; each task logs with its submitter's context
 * (MDC: the pass it belongs to).
 */
final class LaneThreads implements AutoCloseable {

    private final ExecutorService threads;

    LaneThreads() {
        AtomicInteger count = new AtomicInteger();
        this.threads = Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, "windlass-applier-lane-" + count.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
    }

    <T> Future<T> submit(Callable<T> task) {
        Map<String, String> context = MDC.getCopyOfContextMap();
        return threads.submit(() -> {
            if (context != null) MDC.setContextMap(context);
            try {
                return task.call();
            } finally {
                MDC.clear();
            }
        });
    }

    @Override public void close() { threads.shutdownNow(); }
}
