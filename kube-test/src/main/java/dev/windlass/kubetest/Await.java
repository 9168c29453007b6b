package dev.windlass.kubetest;

import java.time.Duration;
import java.util.function.Supplier;

/**
 * Waiting in tests for something the server does on its own time (counting a request, establishing a CRD):
 * a condition polled until a deadline, never a fixed sleep that is either too short or wastes time.
 */
public final class Await {

    private Await() {}

    /** Returns the first value {@code probe} yields that passes {@code done}; fails with the last one at the deadline. */
    public static <T> T until(Duration limit, String what, Supplier<T> probe, java.util.function.Predicate<T> done) {
        long deadline = System.nanoTime() + limit.toNanos();
        while (true) {
            T value = probe.get();
            if (done.test(value)) return value;
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out after " + limit.toMillis() + " ms waiting for " + what + "; last: " + value);
            }
            try {
                Thread.sleep(25);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted while waiting for " + what, e);
            }
        }
    }
}
