package dev.windlass.policy.remediation;

import dev.windlass.policy.model.RemediationPolicy;
import dev.windlass.policy.model.RemediationPolicy.ConditionStatus;
import dev.windlass.policy.model.RemediationPolicy.UnhealthyCondition;
import dev.windlass.policy.observe.ObservedTarget;
import dev.windlass.policy.state.RemediationRecord;
import dev.windlass.policy.state.RemediationRecord.State;
import java.time.Instant;

/**
 * A target's record at {@code now}, before any step is decided: its state from its conditions (Healthy, Pending within a
 * timeout, or unhealthy), with its clocks and counters carried over from the record before. Every clock is the engine's
 * own: since when this engine has seen a condition hold, or has seen the target at all, never a time the server wrote,
 * since hosts' clocks differ and a skewed one would remediate too early or never.
 */
final class Assessment {
    private final RemediationPolicy policy;
    private final Instant now;

    Assessment(RemediationPolicy policy, Instant now) {
        this.policy = policy;
        this.now = now;
    }

    /** Whether {@code o}, judged as a target seen for the first time, is healthy. */
    boolean healthy(ObservedTarget o) {
        return of(o, null).in(State.Healthy);
    }

    RemediationRecord of(ObservedTarget t, RemediationRecord prev) {
        Instant firstSeen = prev == null ? now : prev.firstSeen();
        boolean wasUnhealthy = prev != null && (Remediations.isUnhealthy(prev.state()) || prev.in(State.Pending));
        boolean everHealthy = prev != null && prev.everHealthy();
        Instant markedAt = prev == null ? null : prev.markedAt();
        Instant cordonedAt = prev == null ? null : prev.cordonedAt();
        int attempts = prev == null ? 0 : prev.attempts();
        Instant lastAttempt = prev == null ? null : prev.lastAttemptAt();
        for (UnhealthyCondition u : policy.unhealthyConditions()) {
            ObservedTarget.Condition c = t.condition(u.type());
            if (c == null || !c.status().equals(u.status().name())) continue;
            Instant since = wasUnhealthy && prev.unhealthySince() != null ? prev.unhealthySince() : now;
            // The condition, not how long it held: that is unhealthySince, and a duration here would change every pass.
            String reason = u.type() + "=" + u.status();
            if (Durations.between(since, now) < u.timeoutSeconds()) {
                return new RemediationRecord(policy.name(), t.id(), State.Pending, reason, firstSeen, since, null, everHealthy, markedAt,
                        cordonedAt, attempts, lastAttempt, "unhealthy once it has held for " + Durations.seconds(u.timeoutSeconds()));
            }
            State state = prev != null && Remediations.isUnhealthy(prev.state()) ? prev.state() : State.Unhealthy;
            return new RemediationRecord(policy.name(), t.id(), state, reason, firstSeen, since, null, everHealthy, markedAt, cordonedAt,
                    attempts, lastAttempt, prev == null ? "" : prev.message());
        }
        String readyType = policy.unhealthyConditions().isEmpty() ? "Ready" : policy.unhealthyConditions().get(0).type();
        ObservedTarget.Condition ready = t.condition(readyType);
        if (!everHealthy && (ready == null || !ready.status().equals(ConditionStatus.True.name())) && policy.startupTimeoutSeconds() > 0) {
            // Seen this long by this engine, never ready: the startup clock, for the same reason as above.
            if (Durations.between(firstSeen, now) >= policy.startupTimeoutSeconds()) {
                State state = prev != null && Remediations.isUnhealthy(prev.state()) ? prev.state() : State.Unhealthy;
                return new RemediationRecord(policy.name(), t.id(), state, "never " + readyType, firstSeen, firstSeen, null, false,
                        markedAt, cordonedAt, attempts, lastAttempt, prev == null ? "" : prev.message());
            }
            return new RemediationRecord(policy.name(), t.id(), State.Pending, "starting", firstSeen, null, null, false, null, null, 0, null,
                    "not " + readyType + " yet; startup timeout " + Durations.seconds(policy.startupTimeoutSeconds()));
        }
        Instant healthySince = prev != null && prev.in(State.Healthy) && prev.healthySince() != null ? prev.healthySince() : now;
        String message = "";
        if (Durations.between(healthySince, now) >= policy.minHealthyPeriodSeconds()) {
            // The retry sequence is over. What Windlass cordoned is uncordoned (and unmarked) by the pass, now.
            attempts = 0;
            lastAttempt = null;
        } else if (cordonedAt != null) {
            message = "cordoned by Windlass at " + cordonedAt + ": uncordoned and unmarked once healthy for "
                    + Durations.seconds(policy.minHealthyPeriodSeconds()) + ", when its retries start over";
        } else if (attempts > 0) {
            message = attempts + (attempts == 1 ? " attempt" : " attempts") + " so far; healthy for "
                    + Durations.seconds(policy.minHealthyPeriodSeconds()) + " starts a new retry sequence";
        }
        // The mark stays on a node Windlass cordoned until it is uncordoned; otherwise it comes off now.
        return new RemediationRecord(policy.name(), t.id(), State.Healthy, "", firstSeen, null, healthySince, true,
                cordonedAt == null ? null : markedAt, cordonedAt, attempts, lastAttempt, message);
    }

    /** Healthy for minHealthyPeriodSeconds, by its record: its retry sequence is over. */
    boolean settled(RemediationRecord r) {
        return r.in(State.Healthy) && r.healthySince() != null
                && Durations.between(r.healthySince(), now) >= policy.minHealthyPeriodSeconds();
    }
}
