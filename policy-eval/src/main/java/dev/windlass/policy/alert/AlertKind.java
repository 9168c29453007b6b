package dev.windlass.policy.alert;

/** What happened, with how much it matters unless an event says otherwise. */
public enum AlertKind {
    RolloutStarted(Severity.info),
    WaveStarted(Severity.info),
    WaveCompleted(Severity.info),
    WaveFailed(Severity.error),
    RolloutPaused(Severity.warning),
    RolloutFailed(Severity.error),
    RolledBack(Severity.error),
    RolloutCompleted(Severity.info),
    FailoverStarted(Severity.warning),
    FailoverCompleted(Severity.info),
    FailoverFailed(Severity.error),
    FailoverBlocked(Severity.error),
    RemediationMarked(Severity.warning),
    RemediationActed(Severity.warning),
    RemediationOutOfRetries(Severity.error),
    DriftCorrected(Severity.info),
    ApplyFailed(Severity.error),
    ClusterUnreachable(Severity.error),
    ClusterReachable(Severity.info),
    ApplicationInvalid(Severity.error);

    private final Severity severity;

    AlertKind(Severity severity) { this.severity = severity; }

    public Severity severity() { return severity; }
}
