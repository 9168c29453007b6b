package dev.windlass.policy.state;

import java.time.Instant;

/**
 * A status condition: {@code Ready}, {@code Stalled}, {@code Suspended}, with a PascalCase reason.
 *
 * @param status             True, False or Unknown, as kstatus has it (the status file writes the name)
 * @param lastTransitionTime when the status last changed (the status file writes it in ISO-8601)
 * @param by                 who caused the transition (the author of the commit it came with), when that matters, else null
 */
public record Condition(String type, Status status, String reason, String message, Instant lastTransitionTime, String by) {

    /** A condition's status; the names are the words the status file holds. */
    public enum Status {
        True, False, Unknown;

        public static Status of(boolean holds) { return holds ? True : False; }
    }

    public Condition(String type, Status status, String reason, String message, Instant lastTransitionTime) {
        this(type, status, reason, message, lastTransitionTime, null);
    }

    /** Whether the condition holds: its status is True. */
    public boolean holds() { return status == Status.True; }

    /** The same condition, keeping the old transition time (and who caused it) when the status did not change. */
    public Condition since(Condition previous) {
        if (previous != null && previous.status == status) {
            return new Condition(type, status, reason, message, previous.lastTransitionTime, previous.by);
        }
        return this;
    }
}
