package dev.windlass.policy.plan;

/** Something that happened in a pass, worth a line in the status commit. {@code type} becomes a {@code Windlass-Event} trailer. */
public record Event(Type type, String text) {
    public enum Type { Sync, Prune, Health, Drift, Rollout, Failover, Remediation, Suspension, Review, Error, Alert }
}
