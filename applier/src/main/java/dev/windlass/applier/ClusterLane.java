package dev.windlass.applier;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;

/**
 * One cluster's standing with the applier, so that a cluster that stops answering costs the others nothing: how long
 * its observations usually take, whether its last observation is still running, and whether it is taken to be not
 * answering (a circuit breaker: passes skip it and a cheap probe checks it in the background until it answers again).
 *
 * <p>A pass waits for a cluster's observation at most its <em>allowance</em>: a few times what the cluster usually
 * takes, never less than a floor and never more than the observation deadline. A cluster that has not answered by
 * then is reported unreachable for that pass, its observation goes on in the background until its own deadline, and
 * the next passes do not wait for it at all while it is open.
 */
final class ClusterLane {

    private static final double SMOOTHING = 0.3;

    private Duration typical;              // smoothed duration of its observations that finished; null before the first
    private CompletableFuture<?> running;  // its observation still running after a pass stopped waiting for it
    private String notAnswering;           // why it is taken to be not answering; null while it answers
    private CompletableFuture<Boolean> probe;
    private long probedAtNanos;

    /** How long a pass waits for this cluster's observation. */
    synchronized Duration allowance(ApplierSettings settings, Duration othersTypical) {
        Duration usual = typical != null ? typical : othersTypical;
        Duration wait = usual == null ? settings.firstObservationAllowance() : usual.multipliedBy(settings.allowanceFactor());
        if (wait.compareTo(settings.minAllowance()) < 0) wait = settings.minAllowance();
        return wait.compareTo(settings.observeDeadline()) > 0 ? settings.observeDeadline() : wait;
    }

    /** The smoothed duration of its observations, or null before the first finished. */
    synchronized Duration typical() { return typical; }

    /** An observation finished in {@code took}: it answers. */
    synchronized void answered(Duration took) {
        typical = typical == null ? took
                : Duration.ofNanos((long) (SMOOTHING * took.toNanos() + (1 - SMOOTHING) * typical.toNanos()));
        notAnswering = null;
    }

    /**
     * A pass stopped waiting for {@code observation}: the cluster is taken to be not answering until the observation
     * finishes well or a probe gets an answer.
     */
    synchronized void gaveUpWaiting(CompletableFuture<?> observation, String why) {
        running = observation;
        notAnswering = why;
    }

    /** An observation a pass stopped waiting for has finished (within its own deadline or not). */
    synchronized void finishedLate(CompletableFuture<?> observation) {
        if (running == observation) running = null;
    }

    /** Why it is taken to be not answering, or null. */
    synchronized String notAnswering() { return notAnswering; }

    /** Whether its last observation is still running. */
    synchronized boolean busy() { return running != null && !running.isDone(); }

    /**
     * Starts a probe unless one is running or the last was less than {@code every} ago; {@code probe} answers whether
     * the cluster answered. A probe that gets an answer closes the lane.
     */
    synchronized void probeIfDue(Duration every, java.util.function.Supplier<CompletableFuture<Boolean>> probe) {
        if (this.probe != null && !this.probe.isDone()) return;
        if (this.probe != null && System.nanoTime() - probedAtNanos < every.toNanos()) return;
        probedAtNanos = System.nanoTime();
        CompletableFuture<Boolean> started = probe.get();
        this.probe = started;
        started.thenAccept(answered -> {
            if (Boolean.TRUE.equals(answered)) answeredProbe();
        });
    }

    private synchronized void answeredProbe() { notAnswering = null; }
}
