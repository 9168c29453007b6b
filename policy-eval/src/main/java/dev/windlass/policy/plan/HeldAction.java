package dev.windlass.policy.plan;

/** An action the plan would take but does not, and what holds it (a suspension, a freeze, a gate...). */
/** An action the plan holds back, and why: the reason is data ({@link HoldReason}); its words are {@link #heldBy()}. */
public record HeldAction(Action action, HoldReason reason) {

    /** The reason in words, as the plan shows it. */
    public String heldBy() { return reason.text(); }
}
