package dev.windlass.applier;

import dev.windlass.policy.observe.ClusterObservation;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * How long one pass waits for the observations it started, so that a cluster that stops answering delays the others
 * as little as the rest of the fleet allows.
 *
 * <p>Each cluster is waited for at most its own allowance ({@link ClusterLane#allowance}). Once more than half of the
 * pass's other clusters have answered, a cluster still silent is waited for only {@code allowanceFactor} times their
 * median time, or its own usual time if that is longer, and at least {@code minPeerAllowance}: a cluster far slower
 * than both its peers and itself is not worth the whole fleet's wait. Times count from when each observation got a
 * thread, so that clusters queued behind others (more clusters than threads) are not taken for slow ones; one still
 * queued is waited for its own allowance from the start of the pass.
 */
final class ObservationWait {

    /** What the wait found: the observations that came in, and why each one that did not was given up on. */
    record Outcome(Map<String, ClusterObservation> answered, Map<String, String> givenUp) {}

    private final ApplierSettings settings;
    private final long started;
    private final Map<String, Long> begun;
    private final Map<String, CompletableFuture<ClusterObservation>> running;
    private final Map<String, ClusterLane> lanes;
    private final Map<String, Long> answeredAt = new ConcurrentHashMap<>();

    ObservationWait(ApplierSettings settings, long startedNanos, Map<String, Long> begun,
                    Map<String, CompletableFuture<ClusterObservation>> running, Map<String, ClusterLane> lanes) {
        this.settings = settings;
        this.started = startedNanos;
        this.begun = begun;
        this.running = running;
        this.lanes = lanes;
        running.forEach((cluster, f) -> f.whenComplete((r, x) -> answeredAt.put(cluster, System.nanoTime())));
    }

    /** Waits, with each cluster's own allowance ({@code allowances}), and the peer rule above. */
    Outcome await(Map<String, Duration> allowances) throws InterruptedException {
        Map<String, ClusterObservation> answered = new LinkedHashMap<>();
        Map<String, String> givenUp = new LinkedHashMap<>();
        Set<String> pending = new LinkedHashSet<>(running.keySet());
        while (!pending.isEmpty()) {
            for (String cluster : List.copyOf(pending)) {
                CompletableFuture<ClusterObservation> f = running.get(cluster);
                if (f.isDone()) {
                    answered.put(cluster, result(cluster, f));
                    pending.remove(cluster);
                }
            }
            if (pending.isEmpty()) break;
            Duration peers = peerAllowance(answered.keySet());
            long now = System.nanoTime();
            long earliest = Long.MAX_VALUE;
            for (String cluster : List.copyOf(pending)) {
                Duration own = allowances.get(cluster);
                Duration allowed = own;
                Long from = begun.get(cluster);
                if (peers != null && from != null) {
                    Duration usual = lanes.get(cluster).typical();
                    Duration byPeers = usual == null || usual.multipliedBy(settings.allowanceFactor()).compareTo(peers) < 0
                            ? peers : usual.multipliedBy(settings.allowanceFactor());
                    if (byPeers.compareTo(own) < 0) allowed = byPeers;
                }
                long cut = (from != null ? from : started) + allowed.toNanos();
                if (now >= cut) {
                    givenUp.put(cluster, why(cluster, allowed, allowed == own ? null : answered.size()));
                    pending.remove(cluster);
                } else {
                    earliest = Math.min(earliest, cut);
                }
            }
            if (pending.isEmpty()) break;
            try {
                CompletableFuture.anyOf(pending.stream().map(running::get).toArray(CompletableFuture[]::new))
                        .get(Math.max(1, earliest - System.nanoTime()), TimeUnit.NANOSECONDS);
            } catch (TimeoutException | ExecutionException next) {
                // a cut came due, or an observation ended; the loop sorts out which
            }
        }
        return new Outcome(answered, givenUp);
    }

    /**
     * How long a silent cluster is waited for by the peer rule, or null while no more than half of the others have
     * answered.
     */
    private Duration peerAllowance(Set<String> answered) {
        if (answered.size() * 2 <= running.size() - 1) return null;
        List<Long> times = new ArrayList<>();
        for (String c : answered) times.add(answeredAt.getOrDefault(c, started) - begun.getOrDefault(c, started));
        times.sort(null);
        Duration median = Duration.ofNanos(times.get(times.size() / 2));
        Duration byMedian = median.multipliedBy(settings.allowanceFactor());
        return byMedian.compareTo(settings.minPeerAllowance()) < 0 ? settings.minPeerAllowance() : byMedian;
    }

    private ClusterObservation result(String cluster, CompletableFuture<ClusterObservation> f) {
        try {
            return f.get();
        } catch (InterruptedException x) {
            Thread.currentThread().interrupt();
            return ClusterObservation.unreachable(cluster, "observation interrupted");
        } catch (ExecutionException x) {
            return ClusterObservation.unreachable(cluster, "observation failed: " + x.getCause());
        }
    }

    /** Why a cluster was given up on; {@code peersAnswered} is null when its own allowance ran out. */
    private String why(String cluster, Duration allowed, Integer peersAnswered) {
        Duration usual = lanes.get(cluster).typical();
        String took = usual == null ? "no longer than the others" : Applier.seconds(usual);
        String peers = peersAnswered == null ? "" : ", while " + peersAnswered + " of the pass's " + (running.size() - 1)
                + " other clusters answered";
        return "did not answer within " + Applier.seconds(allowed) + peers + " (it usually takes " + took
                + "); not waited for until it answers again";
    }
}
