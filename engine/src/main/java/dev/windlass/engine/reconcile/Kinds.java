package dev.windlass.engine.reconcile;

import dev.windlass.policy.model.Application;
import dev.windlass.policy.model.DesiredState;
import dev.windlass.policy.model.Manifest;
import dev.windlass.policy.observe.KindRef;
import dev.windlass.policy.state.AppStatus;
import dev.windlass.policy.state.EngineState;
import dev.windlass.policy.state.InventoryEntry;
import dev.windlass.policy.state.TargetStatus;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/** Which kinds to look at on each cluster: everything Git wants there and everything recorded as applied there. */
public final class Kinds {
    private Kinds() {}

    public static Map<String, Set<KindRef>> toObserve(DesiredState desired, EngineState state) {
        Set<KindRef> wanted = new TreeSet<>();
        for (Application app : desired.apps().values()) {
            for (Manifest m : app.allManifests()) if (!m.implicit()) wanted.add(new KindRef(m.apiVersion(), m.ref().kind()));
        }
        Map<String, Set<KindRef>> byCluster = new TreeMap<>();
        for (String cluster : desired.clusters().keySet()) byCluster.put(cluster, new TreeSet<>(wanted));
        for (AppStatus app : state.apps().values()) {
            for (TargetStatus t : app.targets()) {
                Set<KindRef> kinds = byCluster.get(t.cluster());
                if (kinds == null) continue;
                for (InventoryEntry e : t.inventory()) kinds.add(new KindRef(e.apiVersion(), e.kind()));
            }
        }
        return byCluster;
    }
}
