package dev.windlass.policy.model;

import java.time.Duration;

/** Engine settings from {@code windlass.yaml} ({@code kind: Settings}); every field has a default. */
public record Settings(String statusBranch, Duration interval, FailoverSettings failover) {
    public static final Settings DEFAULT = new Settings("windlass/status", Duration.ofSeconds(30), FailoverSettings.DEFAULT);

    public Settings(String statusBranch, Duration interval) {
        this(statusBranch, interval, FailoverSettings.DEFAULT);
    }

    public Settings {
        failover = failover == null ? FailoverSettings.DEFAULT : failover;
    }
}
