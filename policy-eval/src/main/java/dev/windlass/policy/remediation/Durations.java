package dev.windlass.policy.remediation;

import dev.windlass.policy.state.RemediationRecord;
import java.time.Duration;
import java.time.Instant;

/**
 * How long, in words ("45s", "1m", "4m5s", "1h30m"), for the edges that show a duration to people: the mark's text, the line a
 * decision adds to a status commit, {@code windlass status}. Records keep since-times instead: a duration kept in a
 * status file would change every pass, and every change is a commit.
 */
public final class Durations {
    private Durations() {}

    /** {@code 45s}, {@code 1m}, {@code 4m5s}, {@code 1h}, {@code 1h30m}. */
    public static String seconds(long s) {
        if (s < 60) return s + "s";
        if (s < 3600) return s / 60 + "m" + (s % 60 == 0 ? "" : s % 60 + "s");
        long m = s % 3600 / 60;
        return s / 3600 + "h" + (m == 0 ? "" : m + "m") + (s % 60 == 0 ? "" : s % 60 + "s");
    }

    /** Whole seconds from {@code since} to {@code now}; never negative. */
    public static long between(Instant since, Instant now) {
        return Math.max(0, Duration.between(since, now).toSeconds());
    }

    /** Why a target is unhealthy and for how long at {@code now} ({@code Ready=False for 1m}); its reason alone without a since-time. */
    public static String held(RemediationRecord r, Instant now) {
        return r.unhealthySince() == null || r.reason().isEmpty() ? r.reason() : r.reason() + " for " + seconds(between(r.unhealthySince(), now));
    }
}
