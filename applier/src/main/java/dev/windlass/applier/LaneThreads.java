package dev.windlass.applier;

import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.slf4j.MDC;

/**
 * The threads that apply applications side by side within one cluster ({@link ClusterRun}). How many run at once is
 * bounded per cluster by its run, so each task gets a virtual thread of its own: a lane that waits on its cluster's
 * answer holds no platform thread, however many clusters and lanes a fleet has. Each task logs with its submitter's
 * context (MDC: the pass it belongs to).
 */
final class LaneThreads implements AutoCloseable {

    private final ExecutorService threads;

    LaneThreads() {
        this.threads = Executors.newThreadPerTaskExecutor(Thread.ofVirtual().name("windlass-applier-lane-", 1).factory());
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
