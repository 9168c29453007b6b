package dev.windlass.policy.alert;

/** What happened, with how much it matters unless an event says otherwise, and who records it when there are shards. */
public enum AlertKind {
    RolloutStarted(true, Severity.info),
    WaveStarted(true, Severity.info),
    WaveCompleted(true, Severity.info),
    WaveFailed(true, Severity.error),
    RolloutPaused(true, Severity.warning),
    RolloutFailed(true, Severity.error),
    RolledBack(true, Severity.error),
    RolloutCompleted(true, Severity.info),
    /** A pull request restoring a failed application's files to its last good revision was opened (RolloutPolicy.spec.revertPullRequest). */
    RevertProposed(true, Severity.warning),
    FailoverStarted(true, Severity.warning),
    FailoverCompleted(true, Severity.info),
    FailoverFailed(true, Severity.error),
    FailoverBlocked(true, Severity.error),
    RemediationMarked(false, Severity.warning),
    RemediationActed(false, Severity.warning),
    RemediationOutOfRetries(false, Severity.error),
    RemediationBlocked(false, Severity.warning),
    DriftCorrected(false, Severity.info),
    ApplyFailed(false, Severity.error),
    ClusterUnreachable(false, Severity.error),
    ClusterReachable(false, Severity.info),
    ApplicationInvalid(false, Severity.error);

    private final boolean fleetWide;
    private final Severity severity;

    AlertKind(boolean fleetWide, Severity severity) {
        this.fleetWide = fleetWide;
        this.severity = severity;
    }

    public Severity severity() { return severity; }

    /**
     * Whether the change it tells of is a fleet-wide decision (a rollout's or a failover's), recorded with shards by the
     * coordinator; the others are about one cluster, recorded by the holder of its shard.
     */
    public boolean fleetWide() { return fleetWide; }
}
