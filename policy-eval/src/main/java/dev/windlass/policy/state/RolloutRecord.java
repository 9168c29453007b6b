package dev.windlass.policy.state;

/** A finished rollout in an application's history: which revision, when, and how it ended. */
public record RolloutRecord(String revision, java.time.Instant startedAt, java.time.Instant finishedAt, RolloutState.Result result, String message) {}
