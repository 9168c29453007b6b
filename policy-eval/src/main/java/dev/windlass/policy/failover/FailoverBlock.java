package dev.windlass.policy.failover;

/**
 * Why an application that should leave an unhealthy cluster does not: the reason of its {@code FailoverBlocked}
 * condition. The words that go with it are the condition's message.
 */
public enum FailoverBlock {
    /** Too many clusters of the fleet are unhealthy at once to trust that they are, so nothing moves. */
    TooManyClustersUnhealthy,
    /** A suspension or a Freeze holds the application. */
    Suspended,
    /** No healthy cluster its placement selects can take it. */
    NoEligibleCluster,
    /** The policy's limit of failovers under way at once is reached; it waits its turn. */
    MaxConcurrentFailovers
}
