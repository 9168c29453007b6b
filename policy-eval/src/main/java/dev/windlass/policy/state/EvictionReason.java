package dev.windlass.policy.state;

/**
 * Why an application left a cluster: the cluster stopped answering, or answered but was not ready (its API server's
 * {@code /readyz} failed, or no node was Ready), or the application itself was unhealthy there for its toleration.
 * Recorded on the status branch with every eviction and in the failover history, and read back strictly.
 */
public enum EvictionReason {
    ClusterUnreachable, ClusterNotReady, ApplicationFailure;

    /** The reason an unhealthy cluster gives. */
    public static EvictionReason of(ClusterState unhealthy) {
        return switch (unhealthy) {
            case ClusterUnreachable -> ClusterUnreachable;
            case ClusterNotReady -> ClusterNotReady;
            case Healthy -> throw new IllegalArgumentException("a healthy cluster gives no reason to leave it");
        };
    }
}
