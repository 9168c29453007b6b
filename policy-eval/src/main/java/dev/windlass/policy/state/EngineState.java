package dev.windlass.policy.state;

import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Everything that must survive a restart, read from and written to the status branch.
 *
 * @param source the config commit the last pass reconciled
 */
public record EngineState(String source, SortedMap<String, AppStatus> apps, SortedMap<String, ClusterStatus> clusters) {

    public static final EngineState EMPTY = new EngineState(null, new TreeMap<>(), new TreeMap<>());

    public EngineState {
        apps = java.util.Collections.unmodifiableSortedMap(new TreeMap<>(apps));
        clusters = java.util.Collections.unmodifiableSortedMap(new TreeMap<>(clusters));
    }

    public static EngineState of(String source, Map<String, AppStatus> apps, Map<String, ClusterStatus> clusters) {
        return new EngineState(source, new TreeMap<>(apps), new TreeMap<>(clusters));
    }
}
