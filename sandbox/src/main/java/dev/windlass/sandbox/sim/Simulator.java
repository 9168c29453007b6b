package dev.windlass.sandbox.sim;

import dev.windlass.sandbox.SandboxCluster;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Plays kubelet and controllers for every attached sandbox cluster, one round per {@link #tick(Instant)}. Tests call
 * tick with instants of their own; the demo calls {@link #start(Duration, Clock)} to tick on a daemon thread. A
 * workload is ready {@code readyDelay} after the simulator first saw its current generation, measured on the
 * instants it is given. Clusters that are down are skipped, as if their control plane were out of reach too.
 */
public final class Simulator implements AutoCloseable {

    public static final Duration DEFAULT_READY_DELAY = Duration.ofSeconds(2);

    private static final Logger log = LoggerFactory.getLogger(Simulator.class);

    private final Duration readyDelay;
    private final Map<String, SimulatedCluster> clusters = new LinkedHashMap<>(); // guarded by itself
    private final Set<WorkloadMatch> neverReady = ConcurrentHashMap.newKeySet();
    private final Object ticking = new Object();
    private volatile Clock clock;
    private TickTimer timer; // guarded by this

    public Simulator() {
        this(DEFAULT_READY_DELAY, Clock.systemUTC());
    }

    public Simulator(Duration readyDelay) {
        this(readyDelay, Clock.systemUTC());
    }

    /** @param clock dates the nodes created when a cluster is attached; ticks use the instants they are given */
    public Simulator(Duration readyDelay, Clock clock) {
        this.readyDelay = Objects.requireNonNull(readyDelay, "readyDelay");
        this.clock = Objects.requireNonNull(clock, "clock");
        if (readyDelay.isNegative()) {
            throw new IllegalArgumentException("readyDelay must not be negative");
        }
    }

    public Duration readyDelay() {
        return readyDelay;
    }

    /** Takes a cluster on and creates its Node objects at once. */
    public void attach(SandboxCluster cluster, int nodes, int controlPlaneNodes) {
        var simulated = new SimulatedCluster(cluster, new NodePool(cluster.name(), nodes, controlPlaneNodes));
        synchronized (ticking) {
            synchronized (clusters) {
                if (clusters.putIfAbsent(cluster.name(), simulated) != null) {
                    throw new IllegalArgumentException("cluster " + cluster.name() + " is already attached");
                }
            }
            simulated.nodes().reconcile(cluster.local(), clock.instant());
        }
    }

    public void detach(String clusterName) {
        synchronized (ticking) {
            synchronized (clusters) {
                clusters.remove(clusterName);
            }
        }
    }

    /** One round over every cluster that is up. A failing cluster is logged and does not stop the others. */
    public void tick(Instant now) {
        Objects.requireNonNull(now, "now");
        synchronized (ticking) {
            for (SimulatedCluster simulated : snapshot()) {
                if (simulated.cluster().isDown()) {
                    continue;
                }
                try {
                    simulated.tick(now, readyDelay, neverReady);
                } catch (RuntimeException e) {
                    log.warn("simulator tick failed on cluster {}: {}", simulated.cluster().name(), e.toString());
                }
            }
        }
    }

    /** Ticks every {@code period} on a daemon thread, with instants from {@code clock}. */
    public synchronized void start(Duration period, Clock clock) {
        if (timer != null) {
            throw new IllegalStateException("simulator already started");
        }
        this.clock = Objects.requireNonNull(clock, "clock");
        timer = new TickTimer(period, clock, this::tick);
    }

    public synchronized void stop() {
        if (timer != null) {
            timer.stop();
            timer = null;
        }
    }

    @Override public void close() {
        stop();
    }

    /** Wants the node's Ready condition True or False; the next tick flips it. */
    public void nodeReady(String nodeName, boolean ready) {
        for (SimulatedCluster simulated : snapshot()) {
            if (simulated.nodes().has(nodeName)) {
                simulated.nodes().wantReady(nodeName, ready);
                return;
            }
        }
        throw new IllegalArgumentException("no sandbox node named " + nodeName);
    }

    /**
     * Keeps the named workload unready on every cluster, until lifted with
     * {@link #workloadNeverReady(WorkloadMatch, boolean)} and false, or {@link #clearFaults()}.
     */
    public void workloadNeverReady(String namespace, String kind, String name) {
        workloadNeverReady(WorkloadMatch.named(namespace, kind, name), true);
    }

    public void workloadNeverReady(WorkloadMatch match, boolean neverReady) {
        Objects.requireNonNull(match, "match");
        if (neverReady) {
            this.neverReady.add(match);
        } else {
            this.neverReady.remove(match);
        }
    }

    /**
     * The cluster has no room for new Pods ({@code full}), as when every node is cordoned: a workload (or generation of
     * one) first seen from {@code now} on never gets ready, while what was already rolled out stays ready. False lifts it.
     */
    public void noRoomForNewPods(String clusterName, boolean full, Instant now) {
        for (SimulatedCluster simulated : snapshot()) {
            if (simulated.cluster().name().equals(clusterName)) {
                simulated.noRoomSince(full ? now : null);
                return;
            }
        }
        throw new IllegalArgumentException("no sandbox cluster named " + clusterName);
    }

    /** Lifts every workload fault and wants every node Ready again. */
    public void clearFaults() {
        neverReady.clear();
        for (SimulatedCluster simulated : snapshot()) {
            simulated.nodes().allReady();
        }
    }

    private List<SimulatedCluster> snapshot() {
        synchronized (clusters) {
            return new ArrayList<>(clusters.values());
        }
    }
}
