package dev.windlass.policy.model;

import java.time.Duration;

/** Engine settings from {@code windlass.yaml} ({@code kind: Settings}); every field has a default. */
public record Settings(String statusBranch, Duration interval, FailoverSettings failover, ReviewSettings review) {
    public static final Settings DEFAULT = new Settings("windlass/status", Duration.ofSeconds(30), FailoverSettings.DEFAULT,
            ReviewSettings.DEFAULT);

    public Settings(String statusBranch, Duration interval) {
        this(statusBranch, interval, FailoverSettings.DEFAULT, ReviewSettings.DEFAULT);
    }

    public Settings {
        failover = failover == null ? FailoverSettings.DEFAULT : failover;
        review = review == null ? ReviewSettings.DEFAULT : review;
    }
}
