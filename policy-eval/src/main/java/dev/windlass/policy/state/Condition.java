package dev.windlass.policy.state;

/**
 * A status condition: {@code Ready}, {@code Stalled}, {@code Suspended}, with a PascalCase reason.
 *
 * @param by who caused the transition (the author of the commit it came with), when that matters, else null
 */
public record Condition(String type, String status, String reason, String message, String lastTransitionTime, String by) {

    public Condition(String type, String status, String reason, String message, String lastTransitionTime) {
        this(type, status, reason, message, lastTransitionTime, null);
    }

    /** The same condition, keeping the old transition time (and who caused it) when the status did not change. */
    public Condition since(Condition previous) {
        if (previous != null && previous.status.equals(status)) {
            return new Condition(type, status, reason, message, previous.lastTransitionTime, previous.by);
        }
        return this;
    }
}
