package dev.windlass.policy.observe;

import java.util.Map;

/** A node of a cluster: its labels and whether its Ready condition is True. */
public record NodeObservation(String name, Map<String, String> labels, boolean ready) {}
