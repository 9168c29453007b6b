package dev.windlass.policy.alert;

/** Where a provider delivers. Written in the repo in lower case, as here. */
public enum ProviderType {
    webhook, slack, msteams, github, gitea,
    /** GitHub Deployments: one deployment per application and cluster of a rollout, its statuses following the waves. */
    githubdeployments;

    /** Whether it posts a commit status on the config commit. */
    public boolean commitStatus() { return this == github || this == gitea; }

    /** Whether it calls a Git host's API on a repository: it needs {@code repository} and a token. */
    public boolean repositoryApi() { return commitStatus() || this == githubdeployments; }

    /** Whether its address is itself the credential (an incoming webhook URL), so it may only come from a Secret. */
    public boolean addressIsSecret() { return this == slack || this == msteams; }

    /**
     * Whether it sends anything for events of {@code kind}: messages take every kind; a commit status is set by a rollout's
     * start and result and by an application's errors; a deployment follows the waves and a rollback.
     */
    public boolean takes(AlertKind kind) {
        return switch (this) {
            case webhook, slack, msteams -> true;
            case github, gitea -> switch (kind) {
                case RolloutStarted, RolloutCompleted, RolloutFailed, RolledBack, ApplicationInvalid -> true;
                default -> false;
            };
            case githubdeployments -> switch (kind) {
                case WaveStarted, WaveCompleted, WaveFailed, RolledBack -> true;
                default -> false;
            };
        };
    }
}
