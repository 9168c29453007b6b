package dev.windlass.policy.alert;

/** How much an event matters, in increasing order; an Alert takes its severity and everything above. */
public enum Severity { info, warning, error }
