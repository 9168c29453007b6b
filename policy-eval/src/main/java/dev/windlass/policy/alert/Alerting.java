package dev.windlass.policy.alert;

import java.util.List;
import java.util.SortedMap;
import java.util.TreeMap;

/** Every usable Provider (by name) and Alert of a commit. */
public record Alerting(SortedMap<String, Provider> providers, List<Alert> alerts) {
    public static final Alerting NONE = new Alerting(new TreeMap<>(), List.of());

    public Alerting {
        providers = java.util.Collections.unmodifiableSortedMap(new TreeMap<>(providers));
        alerts = List.copyOf(alerts);
    }

    public boolean isEmpty() { return alerts.isEmpty(); }
}
