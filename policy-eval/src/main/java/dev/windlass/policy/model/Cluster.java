package dev.windlass.policy.model;

import java.util.Map;

/** A member cluster of the fleet, from {@code kind: Cluster}. */
public record Cluster(String name, Map<String, String> labels, Connection connection, boolean suspend,
                      int unreachableTolerationSeconds, SourceLocation location, Map<String, String> annotations) {

    public Cluster(String name, Map<String, String> labels, Connection connection, boolean suspend, int unreachableTolerationSeconds,
                   SourceLocation location) {
        this(name, labels, connection, suspend, unreachableTolerationSeconds, location, Map.of());
    }

    public Cluster {
        labels = Map.copyOf(labels);
        annotations = annotations == null ? Map.of() : Map.copyOf(annotations);
    }

    /** How the engine reaches the cluster: exactly one of these. */
    public sealed interface Connection permits Kubeconfig, Sandbox {}

    /** A kubeconfig file on the engine host (never a secret in Git), optionally a context in it. */
    public record Kubeconfig(String path, String context) implements Connection {}

    /** An embedded simulated cluster with this many nodes, of which {@code controlPlaneNodes} are control plane. */
    public record Sandbox(int nodes, int controlPlaneNodes) implements Connection {}
}
