package dev.windlass.policy.observe;

import java.util.Map;

/** Every cluster's observation for one pass, by cluster name. A cluster not in the map was not observed. */
public record ObservedState(Map<String, ClusterObservation> clusters) {
    public ObservedState { clusters = Map.copyOf(clusters); }

    public ClusterObservation cluster(String name) {
        ClusterObservation c = clusters.get(name);
        return c != null ? c : ClusterObservation.unreachable(name, "not observed");
    }
}
