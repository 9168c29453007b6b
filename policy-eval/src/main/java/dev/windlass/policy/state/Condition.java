package dev.windlass.policy.state;

/** A status condition: {@code Ready}, {@code Reconciling}, {@code Stalled}, with a PascalCase reason. */
public record Condition(String type, String status, String reason, String message, String lastTransitionTime) {

    /** The same condition, keeping the old transition time when the status did not change. */
    public Condition since(Condition previous) {
        if (previous != null && previous.status.equals(status)) {
            return new Condition(type, status, reason, message, previous.lastTransitionTime);
        }
        return this;
    }
}
