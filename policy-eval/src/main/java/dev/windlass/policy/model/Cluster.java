package dev.windlass.policy.model;

import java.util.Map;

/**
 * A member cluster of the fleet, from {@code kind: Cluster}.
 *
 * @param shard the shard it is pinned to ({@code spec.shard}), or null: the engine's stable rule assigns it
 */
public record Cluster(String name, Map<String, String> labels, Connection connection, boolean suspend,
                      int unreachableTolerationSeconds, SourceLocation location, Map<String, String> annotations, Integer shard) {

    public Cluster(String name, Map<String, String> labels, Connection connection, boolean suspend, int unreachableTolerationSeconds,
                   SourceLocation location, Map<String, String> annotations) {
        this(name, labels, connection, suspend, unreachableTolerationSeconds, location, annotations, null);
    }

    public Cluster(String name, Map<String, String> labels, Connection connection, boolean suspend, int unreachableTolerationSeconds,
                   SourceLocation location) {
        this(name, labels, connection, suspend, unreachableTolerationSeconds, location, Map.of());
    }

    public Cluster {
        labels = Map.copyOf(labels);
        annotations = annotations == null ? Map.of() : Map.copyOf(annotations);
    }

    /** How the engine reaches the cluster: exactly one of these. */
    public sealed interface Connection permits Kubeconfig, InCluster, KubeconfigSecret, Sandbox {}

    /** A kubeconfig file on the engine host (never a secret in Git), optionally a context in it. */
    public record Kubeconfig(String path, String context) implements Connection {}

    /** The cluster the engine runs in, reached as the engine's own ServiceAccount ({@code inCluster: true}). */
    public record InCluster() implements Connection {}

    /**
     * A kubeconfig held in the Secret {@code name} of the engine's own namespace, under {@code key}, optionally a context
     * in it; read through the cluster the engine runs in, again on every pass, so a changed Secret takes effect without a
     * restart. Git names the Secret, never its content.
     */
    public record KubeconfigSecret(String name, String key, String context) implements Connection {}

    /** An embedded simulated cluster with this many nodes, of which {@code controlPlaneNodes} are control plane. */
    public record Sandbox(int nodes, int controlPlaneNodes) implements Connection {}
}
