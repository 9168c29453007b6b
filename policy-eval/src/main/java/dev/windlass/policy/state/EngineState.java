package dev.windlass.policy.state;

import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Everything that must survive a restart, read from and written to the status branch.
 *
 * @param source      the config commit the last pass reconciled
 * @param policyFiles files that held a Freeze or RolloutPolicy last pass: if one cannot be read now, what it
 *                    held cannot be known, so everything is held rather than let a freeze vanish
 */
public record EngineState(String source, SortedMap<String, AppStatus> apps, SortedMap<String, ClusterStatus> clusters,
                          java.util.SortedSet<String> policyFiles) {

    public static final EngineState EMPTY = new EngineState(null, new TreeMap<>(), new TreeMap<>(), new java.util.TreeSet<>());

    public EngineState {
        policyFiles = java.util.Collections.unmodifiableSortedSet(new java.util.TreeSet<>(policyFiles == null ? java.util.Set.of() : policyFiles));
        apps = java.util.Collections.unmodifiableSortedMap(new TreeMap<>(apps));
        clusters = java.util.Collections.unmodifiableSortedMap(new TreeMap<>(clusters));
    }

    public static EngineState of(String source, Map<String, AppStatus> apps, Map<String, ClusterStatus> clusters) {
        return of(source, apps, clusters, java.util.Set.of());
    }

    public static EngineState of(String source, Map<String, AppStatus> apps, Map<String, ClusterStatus> clusters, java.util.Set<String> policyFiles) {
        return new EngineState(source, new TreeMap<>(apps), new TreeMap<>(clusters), new java.util.TreeSet<>(policyFiles));
    }
}
