package dev.windlass.policy.alert;

/** Where a provider delivers. Written in the repo in lower case, as here. */
public enum ProviderType {
    webhook, slack, msteams, github, gitea;

    /** Whether it posts a commit status on the config commit (and so needs a repository and a token). */
    public boolean commitStatus() { return this == github || this == gitea; }

    /** Whether its address is itself the credential (an incoming webhook URL), so it may only come from a Secret. */
    public boolean addressIsSecret() { return this == slack || this == msteams; }
}
