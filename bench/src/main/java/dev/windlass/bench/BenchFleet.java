package dev.windlass.bench;

import dev.windlass.applier.Applier;
import dev.windlass.applier.cluster.ClientSettings;
import dev.windlass.applier.cluster.ClusterClients;
import dev.windlass.engine.reconcile.Fleet;
import dev.windlass.policy.model.Cluster;
import dev.windlass.policy.observe.DesiredObjects;
import dev.windlass.policy.observe.KindRef;
import dev.windlass.policy.observe.ObservedState;
import dev.windlass.policy.plan.ActionResult;
import dev.windlass.policy.plan.Stage;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The engine's fleet in a benchmark: the production applier and clients with their default limits, pointed at
 * clusters that run outside this JVM. Only the wiring differs from the engine's own fleet ({@code ClusterFleet}),
 * which starts sandbox clusters in-process; every call it makes to the applier is made here the same way.
 */
final class BenchFleet implements Fleet {
    private final ClusterClients clients;
    private final Applier applier;

    /** @param settings the engine's client settings but for writes in flight and HTTP/2, which the bench may set */
    BenchFleet(Clusters clusters, ClientSettings settings) {
        this.clients = new ClusterClients(settings);
        this.applier = new Applier(clients);
        for (String name : clusters.names()) clients.register(name, clusters.config(name), clusters.serverSideApply());
    }

    @Override public void connect(Map<String, Cluster> clusters) {
        for (String name : clusters.keySet()) {
            if (!clients.clusters().contains(name)) throw new IllegalStateException("the bench runs no cluster named " + name);
        }
    }

    @Override public ObservedState observe(Map<String, Set<KindRef>> kindsByCluster) { return applier.observe(kindsByCluster); }

    @Override public ObservedState observe(Map<String, Set<KindRef>> kinds, Map<String, Set<KindRef>> targets) {
        return applier.observe(kinds, targets);
    }

    /** Differences Windlass's own comparison finds are confirmed by the server's dry run, as in the engine's own fleet. */
    @Override public ObservedState observe(Map<String, Set<KindRef>> kinds, Map<String, Set<KindRef>> targets, DesiredObjects desired) {
        return applier.observe(kinds, targets, desired);
    }

    @Override public List<ActionResult> execute(Stage stage, Set<String> clusters) { return applier.execute(stage, clusters); }

    /** Each cluster goes through the plan's stages on its own, as in the engine's own fleet. */
    @Override public List<ActionResult> executeStages(List<Stage> stages) { return applier.executeStages(stages); }

    @Override public List<ActionResult> dryRun(Stage stage, Set<String> clusters) { return applier.dryRun(stage, clusters); }

    @Override public void close() {
        applier.close();
        clients.close();
    }
}
