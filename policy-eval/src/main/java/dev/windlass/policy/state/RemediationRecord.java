package dev.windlass.policy.state;

import java.time.Instant;

/**
 * One target a remediation policy watches on a cluster, as recorded on the status branch
 * ({@code remediation:} in {@code status/clusters/<name>.yaml}). Every clock and counter the decisions rest on
 * lives here, so a restarted engine neither repeats an attempt nor forgets one.
 *
 * @param target        {@code Node eu-1-cp-2}
 * @param state         Healthy, Pending (an unhealthy condition holds, not yet for its timeout), Unhealthy, Marked,
 *                      Remediating (the action was taken), GaveUp (maxRetry reached), Missing (expected, not there)
 * @param reason        why it is unhealthy: the condition that holds ("Ready=False"), or "never Ready" past the startup
 *                      timeout; "" when healthy. How long is {@code unhealthySince}: a duration here would change every
 *                      pass, and make a status commit of each (the mark, commit lines and {@code windlass status} show it)
 * @param firstSeen     when Windlass first saw it (the startup clock when the object has no creation time)
 * @param unhealthySince since when this engine has seen an unhealthy condition hold (its own clock, never the server's)
 * @param healthySince  since when it has been healthy without a break; healthy for minHealthyPeriodSeconds resets attempts
 * @param everHealthy   whether it was ever healthy (a target that never was is judged by startupTimeoutSeconds)
 * @param markedAt      when the {@code windlass.dev/unhealthy} annotation was put on it; null once it is off
 * @param cordonedAt    when Windlass cordoned it (CordonAndDrain, a node that was not cordoned already): Windlass
 *                      uncordons it once it has been healthy for minHealthyPeriodSeconds, and only then; null otherwise
 * @param attempts      attempts in the current retry sequence: a mark is one (the action it opens belongs to it), and
 *                      so is each further action
 * @param lastAttemptAt when the last one was taken
 * @param message       what is happening now, in words: the step, what it waits for, why an attempt failed
 */
public record RemediationRecord(String policy, String target, State state, String reason, Instant firstSeen, Instant unhealthySince,
                                Instant healthySince, boolean everHealthy, Instant markedAt, Instant cordonedAt, int attempts,
                                Instant lastAttemptAt, String message) {
    public RemediationRecord {
        reason = reason == null ? "" : reason;
        message = message == null ? "" : message;
        // Written before a mark counted as an attempt: the mark it carries is one, so that it is bounded like any other.
        if (state == State.Marked && attempts == 0) attempts = 1;
    }

    /** A record of a target Windlass did not cordon. */
    public RemediationRecord(String policy, String target, State state, String reason, Instant firstSeen, Instant unhealthySince,
                             Instant healthySince, boolean everHealthy, Instant markedAt, int attempts, Instant lastAttemptAt, String message) {
        this(policy, target, state, reason, firstSeen, unhealthySince, healthySince, everHealthy, markedAt, null, attempts, lastAttemptAt,
                message);
    }

    /** The states a watched target goes through. */
    public enum State { Healthy, Pending, Unhealthy, Marked, Remediating, GaveUp, Missing }

    /** Whether the record is in {@code s}. */
    public boolean in(State s) { return state == s; }

    public boolean inFlight() { return in(State.Marked) || in(State.Remediating); }

    public RemediationRecord withMessage(String text) {
        return new RemediationRecord(policy, target, state, reason, firstSeen, unhealthySince, healthySince, everHealthy, markedAt,
                cordonedAt, attempts, lastAttemptAt, text);
    }

    /** The same record in {@code newState}, saying {@code text}. */
    public RemediationRecord with(State newState, String text) {
        return new RemediationRecord(policy, target, newState, reason, firstSeen, unhealthySince, healthySince, everHealthy, markedAt,
                cordonedAt, attempts, lastAttemptAt, text);
    }
}
