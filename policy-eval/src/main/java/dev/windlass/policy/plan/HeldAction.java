package dev.windlass.policy.plan;

/** An action the plan holds back, and why: the reason is data ({@link HoldReason}); its words are the reason's {@link HoldReason#text()}. */
public record HeldAction(Action action, HoldReason reason) {}
