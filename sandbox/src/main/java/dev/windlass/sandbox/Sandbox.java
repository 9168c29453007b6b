package dev.windlass.sandbox;

import dev.windlass.sandbox.sim.Simulator;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * A fleet of sandbox clusters by name, and the one {@link Simulator} that plays kubelet and controllers for all of
 * them. Closing it stops the simulator and every cluster.
 */
public final class Sandbox implements AutoCloseable {

    // Cluster names end up in node names and thread names, so they must be valid DNS labels.
    private static final Pattern DNS_LABEL = Pattern.compile("[a-z0-9]([-a-z0-9]{0,40}[a-z0-9])?");

    private final ClusterSettings settings;
    private final Simulator simulator;
    private final Map<String, SandboxCluster> clusters = new LinkedHashMap<>();

    public Sandbox() {
        this(ClusterSettings.defaults(), new Simulator());
    }

    public Sandbox(ClusterSettings settings, Simulator simulator) {
        this.settings = Objects.requireNonNull(settings, "settings");
        this.simulator = Objects.requireNonNull(simulator, "simulator");
    }

    /**
     * Starts a cluster with {@code nodes} nodes, the first {@code controlPlaneNodes} of them control-plane nodes, and
     * hands it to the simulator, which creates its Node objects right away.
     */
    public synchronized SandboxCluster add(String name, int nodes, int controlPlaneNodes) {
        Objects.requireNonNull(name, "name");
        if (!DNS_LABEL.matcher(name).matches()) {
            throw new IllegalArgumentException("cluster name must be a DNS label of at most 42 characters: " + name);
        }
        if (nodes < 0 || controlPlaneNodes < 0 || controlPlaneNodes > nodes) {
            throw new IllegalArgumentException(
                    "need 0 <= controlPlaneNodes <= nodes, got " + controlPlaneNodes + " of " + nodes);
        }
        if (clusters.containsKey(name)) {
            throw new IllegalArgumentException("there is already a sandbox cluster named " + name);
        }
        SandboxCluster cluster = SandboxCluster.start(name, settings);
        try {
            simulator.attach(cluster, nodes, controlPlaneNodes);
        } catch (RuntimeException e) {
            cluster.close();
            throw e;
        }
        clusters.put(name, cluster);
        return cluster;
    }

    public synchronized SandboxCluster cluster(String name) {
        SandboxCluster cluster = clusters.get(name);
        if (cluster == null) {
            throw new IllegalArgumentException("no sandbox cluster named " + name + "; there are " + clusters.keySet());
        }
        return cluster;
    }

    /** The clusters in the order they were added. */
    public synchronized List<SandboxCluster> clusters() {
        return List.copyOf(clusters.values());
    }

    public Simulator simulator() {
        return simulator;
    }

    @Override public void close() {
        simulator.stop();
        List<SandboxCluster> all;
        synchronized (this) {
            all = new ArrayList<>(clusters.values());
            clusters.clear();
        }
        for (SandboxCluster cluster : all) {
            simulator.detach(cluster.name());
            cluster.close();
        }
    }
}
