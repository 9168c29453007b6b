package dev.windlass.engine.reconcile;

import dev.windlass.applier.Applier;
import dev.windlass.applier.cluster.ClusterClients;
import dev.windlass.policy.model.Cluster;
import dev.windlass.policy.observe.DesiredObjects;
import dev.windlass.policy.observe.KindRef;
import dev.windlass.policy.observe.ObservedState;
import dev.windlass.policy.fence.WriteFence;
import dev.windlass.policy.plan.ActionResult;
import dev.windlass.policy.plan.Stage;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The real fleet: clusters reached through their kubeconfig, and sandbox clusters run in-process
 * (started the first time Git lists them, from a {@link SandboxSupply} its creator owns and closes).
 */
public final class ClusterFleet implements Fleet {
    private final ClusterClients clients;
    private final Applier applier;
    private final SandboxSupply sandbox;

    public ClusterFleet(ClusterClients clients, Applier applier, SandboxSupply sandbox) {
        this.clients = clients;
        this.applier = applier;
        this.sandbox = sandbox;
    }

    @Override public void connect(Map<String, Cluster> clusters) {
        for (Cluster c : clusters.values()) {
            if (c.connection() instanceof Cluster.Sandbox s) {
                if (!clients.clusters().contains(c.name())) {
                    clients.registerSandbox(c.name(), sandbox.cluster(c.name(), s.nodes(), s.controlPlaneNodes()));
                }
            } else {
                clients.connect(c);
            }
        }
        for (String known : clients.clusters()) if (!clusters.containsKey(known)) clients.remove(known);
    }

    @Override public ObservedState observe(Map<String, Set<KindRef>> kindsByCluster) {
        return applier.observe(kindsByCluster);
    }

    @Override public ObservedState observe(Map<String, Set<KindRef>> kindsByCluster, Map<String, Set<KindRef>> targetsByCluster) {
        return applier.observe(kindsByCluster, targetsByCluster);
    }

    @Override public ObservedState observe(Map<String, Set<KindRef>> kindsByCluster, Map<String, Set<KindRef>> targetsByCluster,
                                           DesiredObjects desired) {
        return applier.observe(kindsByCluster, targetsByCluster, desired);
    }

    @Override public List<ActionResult> execute(Stage stage, Set<String> clusters) {
        return applier.execute(stage, clusters);
    }

    @Override public List<ActionResult> executeStages(List<Stage> stages) {
        return applier.executeStages(stages);
    }

    @Override public List<ActionResult> executeStages(List<Stage> stages, WriteFence fence) {
        return applier.executeStages(stages, fence);
    }

    @Override public List<ActionResult> dryRun(Stage stage, Set<String> clusters) {
        return applier.dryRun(stage, clusters);
    }

    @Override public java.util.Optional<dev.windlass.applier.observe.FleetStamp> stamp(Set<String> clusters) { return applier.stamp(clusters); }

    @Override public boolean ready(Set<String> clusters) { return applier.ready(clusters); }

    @Override public void renewProofs(Set<String> clusters) { applier.renewProofs(clusters); }

    public dev.windlass.sandbox.Sandbox sandbox() { return sandbox.get(); }

    /** See {@link ClusterClients#awaitCurrent}. */
    public boolean awaitWatchesCurrent(java.time.Duration timeout) { return clients.awaitCurrent(timeout); }

    /** Closes the clients; the sandbox belongs to whoever created it. */
    @Override public void close() {
        applier.close();
        clients.close();
    }
}
