package dev.windlass.policy.placement;

import dev.windlass.policy.model.Application;
import dev.windlass.policy.model.Cluster;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * Chooses an application's clusters. Eligible clusters are those matching {@code clusterSelector}
 * plus those named in {@code clusterNames}. Under {@code maxClusters}, clusters the app is already on
 * are kept first, then the rest by name, so adding a cluster never reshuffles a running app.
 */
public final class Placement {
    private Placement() {}

    public static List<String> place(Application app, Map<String, Cluster> clusters, Collection<String> current) {
        TreeSet<String> eligible = eligible(app, clusters);
        var spec = app.placement();
        if (spec.maxClusters() <= 0 || eligible.size() <= spec.maxClusters()) return List.copyOf(eligible);
        List<String> chosen = new ArrayList<>();
        for (String c : new TreeSet<>(current)) {
            if (eligible.contains(c) && chosen.size() < spec.maxClusters()) chosen.add(c);
        }
        for (String c : eligible) {
            if (chosen.size() >= spec.maxClusters()) break;
            if (!chosen.contains(c)) chosen.add(c);
        }
        return List.copyOf(new TreeSet<>(chosen));
    }

    /**
     * Every cluster the application may run on, before {@code maxClusters}: where it runs is always among these,
     * whatever it ran on before and wherever a failover moves it.
     */
    public static TreeSet<String> eligible(Application app, Map<String, Cluster> clusters) {
        TreeSet<String> eligible = new TreeSet<>();
        var spec = app.placement();
        for (Cluster c : clusters.values()) {
            if (spec.clusterSelector() != null && spec.clusterSelector().matches(c.labels())) eligible.add(c.name());
        }
        for (String name : spec.clusterNames()) if (clusters.containsKey(name)) eligible.add(name);
        return eligible;
    }
}
