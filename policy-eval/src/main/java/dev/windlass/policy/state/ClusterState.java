package dev.windlass.policy.state;

/**
 * A cluster's health as failover judges it and the status branch records it: Healthy, ClusterUnreachable (no answer),
 * or ClusterNotReady (its API server's {@code /readyz} fails, or no node is Ready). The unhealthy names are also the
 * reasons a failover gives.
 */
public enum ClusterState { Healthy, ClusterUnreachable, ClusterNotReady }
