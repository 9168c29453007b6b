package dev.windlass.engine.alerts;

import dev.windlass.policy.alert.AlertEvent;
import java.time.Instant;

/**
 * One event for one provider, as the status branch records it ({@code status/alerts.yaml}): recorded Pending in the
 * same commit as the change it tells of, then Delivered or Failed once its provider's worker is done with it.
 *
 * @param planHash   the hash of the plan of the pass that recorded the change
 * @param attempts   how many times it was sent
 * @param error      what went wrong the last time, for people (no decision reads it); "" when nothing did
 * @param finishedAt when it was delivered or given up; null while pending
 */
public record Delivery(AlertEvent event, String provider, String planHash, State state, int attempts, String error, Instant finishedAt) {
    public enum State { Pending, Delivered, Failed }

    public Delivery {
        planHash = planHash == null ? "" : planHash;
        error = error == null ? "" : error;
    }

    public static Delivery pending(AlertEvent event, String provider, String planHash) {
        return new Delivery(event, provider, planHash, State.Pending, 0, "", null);
    }

    /** Which delivery this is: the event's id and the provider. */
    public String key() { return event.id() + "@" + provider; }

    public Delivery finished(State s, int tried, String why, Instant at) { return new Delivery(event, provider, planHash, s, tried, why, at); }
}
