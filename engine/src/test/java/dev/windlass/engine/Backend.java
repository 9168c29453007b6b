package dev.windlass.engine;

import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;

/**
 * Where a scenario's clusters run: the embedded sandbox, or real control planes (API server, controller-manager,
 * scheduler, kwok nodes). Scenarios written against this run the same on both; each fault is a real mechanism on a
 * real control plane, never a status written by the test.
 */
public interface Backend extends AutoCloseable {

    /** Real control planes, rather than the sandbox. */
    boolean real();

    /**
     * The {@code spec.connection} of a Cluster object for {@code cluster}, as YAML flow text, with {@code nodes} nodes
     * of which {@code controlPlaneNodes} are control-plane nodes, named {@code <cluster>-cp-<i>} and
     * {@code <cluster>-worker-<i>} (from 1). A real backend starts the cluster the first time it is named.
     */
    String connection(String cluster, int nodes, int controlPlaneNodes);

    KubernetesClient client(String cluster);

    /**
     * The engine's clock moves on by {@code step}, and the clusters catch up: the sandbox's simulator acts on the new
     * time; a real cluster's controllers are given the real time they need, until its workloads are rolled out or
     * stuck (a Pod nobody can schedule), a few seconds at most.
     */
    void advance(MutableClock clock, Duration step);

    /** The cluster's API server stops answering (connections refused) or answers again. */
    void down(String cluster, boolean down);

    /**
     * A node's kubelet stops (the node goes not ready) or starts again. Returns once the node's Ready condition says
     * so: on a real cluster the node-lifecycle controller takes its grace period.
     */
    void nodeReady(String cluster, String node, boolean ready);

    /** Like {@link #nodeReady(String, String, boolean)} for several nodes at once. */
    default void nodesReady(String cluster, java.util.List<String> nodes, boolean ready) {
        for (String node : nodes) nodeReady(cluster, node, ready);
    }

    /**
     * New Pods cannot start on the cluster ({@code true}) or can again: on a real cluster every node is cordoned, so
     * a rollout's new Pods stay Pending; on the sandbox every workload stays not ready.
     */
    void noRoomForNewPods(String cluster, boolean full);

    /** Writes (POST/PUT/PATCH/DELETE) to objects Windlass manages on the cluster since the last reset, counted by the server side. */
    long writes(String cluster);

    void resetWrites(String cluster);

    /** What {@link #writes(String)} counted, by verb and resource, for a failing test to say which writes they were. */
    default String writesSeen(String cluster) { return ""; }

    /** DELETE requests for objects of {@code resource} (plural, like {@code deployments}) since the last reset. */
    long deletes(String cluster, String resource);

    @Override void close();
}
