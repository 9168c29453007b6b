package dev.windlass.policy.remediation;

import java.time.Duration;
import java.time.Instant;

/**
 * How long, in words ("45s", "1m", "4m5s"), and whole seconds between a recorded instant and now.
 */
public final class Durations {
    private Durations() {}

    /** {@code 45s}, {@code 1m}, {@code 4m5s}, {@code 90m}. */
    public static String seconds(long s) {
        return s < 60 ? s + "s" : s % 60 == 0 ? s / 60 + "m" : s / 60 + "m" + s % 60 + "s";
    }

    /** Whole seconds from {@code since} (an instant as recorded) to {@code now}; never negative. */
    public static long between(String since, Instant now) {
        return Math.max(0, Duration.between(Instant.parse(since), now).toSeconds());
    }
}
