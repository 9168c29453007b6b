package dev.windlass.engine;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * One thread that can be frozen: tasks handed to it while frozen wait, without running, until it is thawed. As a
 * lease's renewal thread, it is a replica whose renewals stop while the rest of the process goes on, as a replica
 * stopped with SIGSTOP looks to the others (and to its own pass thread, once it runs again).
 */
final class FreezableExecutor implements Executor, AutoCloseable {
    private final ExecutorService thread = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "frozen-renewals");
        t.setDaemon(true);
        return t;
    });
    private volatile CountDownLatch gate = new CountDownLatch(0);

    @Override public void execute(Runnable task) {
        thread.execute(() -> {
            try {
                gate.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
            task.run();
        });
    }

    void freeze() { gate = new CountDownLatch(1); }

    void thaw() { gate.countDown(); }

    @Override public void close() {
        thaw();
        thread.shutdownNow();
    }
}
