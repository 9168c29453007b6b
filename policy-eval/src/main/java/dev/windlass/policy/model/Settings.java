package dev.windlass.policy.model;

import java.time.Duration;

/** Engine settings from {@code windlass.yaml} ({@code kind: Settings}); every field has a default. */
public record Settings(String statusBranch, Duration interval) {
    public static final Settings DEFAULT = new Settings("windlass/status", Duration.ofSeconds(30));
}
