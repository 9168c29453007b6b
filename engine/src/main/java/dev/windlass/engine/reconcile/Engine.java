package dev.windlass.engine.reconcile;

import dev.windlass.applier.Applier;
import dev.windlass.applier.cluster.ClusterClients;
import dev.windlass.git.Mirror;
import dev.windlass.git.RetryPolicy;
import dev.windlass.git.StatusWriter;
import dev.windlass.sandbox.Sandbox;
import java.time.Clock;

/** The parts of a running engine wired together: mirror, status writer, fleet and reconciler. */
public final class Engine implements AutoCloseable {
    private final Mirror mirror;
    private final ClusterFleet fleet;
    private final Reconciler reconciler;

    public Engine(Mirror mirror, String branch, String statusBranch, Sandbox sandbox, Clock clock) {
        this.mirror = mirror;
        ClusterClients clients = new ClusterClients();
        this.fleet = new ClusterFleet(clients, new Applier(clients), sandbox);
        this.reconciler = new Reconciler(mirror, branch, new StatusWriter(mirror, statusBranch, RetryPolicy.DEFAULT), fleet, clock);
    }

    public Reconciler reconciler() { return reconciler; }

    public Sandbox sandbox() { return fleet.sandbox(); }

    public Mirror mirror() { return mirror; }

    @Override public void close() {
        fleet.close();
        mirror.close();
    }
}
