package dev.windlass.policy.remediation;

/**
 * Why a remediation policy does not act on a cluster in this pass: the reason of its {@code RemediationBlocked}
 * condition. The words that go with it are the condition's message.
 */
public enum RemediationBlock {
    /** A suspension or a Freeze holds the cluster. */
    Suspended,
    /** A rollout step is under way on the cluster; remediation waits for it. */
    RolloutInProgress,
    /** Too many of the policy's targets are unhealthy at once to trust that they are. */
    TooManyUnhealthy,
    /** Acting would leave fewer healthy members than the quorum the policy keeps. */
    Quorum,
    /** As many remediations as maxInFlight are under way already. */
    MaxInFlight
}
