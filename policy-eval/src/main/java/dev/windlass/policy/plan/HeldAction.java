package dev.windlass.policy.plan;

/** An action the plan would take but does not, and what holds it (a suspension, a freeze, a gate...). */
public record HeldAction(Action action, String heldBy) {}
