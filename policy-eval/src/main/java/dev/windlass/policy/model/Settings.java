package dev.windlass.policy.model;

import java.time.Duration;

/**
 * Engine settings from {@code windlass.yaml} ({@code kind: Settings}); every field has a default.
 *
 * @param statusHistoryLimit commits the status branch keeps (older ones are folded into one root commit); 0 keeps all
 */
public record Settings(String statusBranch, Duration interval, FailoverSettings failover, ReviewSettings review,
        int statusHistoryLimit) {
    public static final int DEFAULT_STATUS_HISTORY_LIMIT = 1_000;
    public static final Settings DEFAULT = new Settings("windlass/status", Duration.ofSeconds(30), FailoverSettings.DEFAULT,
            ReviewSettings.DEFAULT, DEFAULT_STATUS_HISTORY_LIMIT);

    public Settings(String statusBranch, Duration interval) {
        this(statusBranch, interval, FailoverSettings.DEFAULT, ReviewSettings.DEFAULT, DEFAULT_STATUS_HISTORY_LIMIT);
    }

    public Settings {
        failover = failover == null ? FailoverSettings.DEFAULT : failover;
        review = review == null ? ReviewSettings.DEFAULT : review;
    }
}
