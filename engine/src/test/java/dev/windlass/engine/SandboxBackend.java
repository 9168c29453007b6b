package dev.windlass.engine;

import io.fabric8.kubernetes.client.KubernetesClient;

/** Scenario clusters on the embedded sandbox of a {@link TestFleet}; writes are counted by its request log. */
final class SandboxBackend implements Backend {
    private final TestFleet fleet;

    SandboxBackend(TestFleet fleet) { this.fleet = fleet; }

    @Override public String connection(String cluster) { return "{sandbox: {nodes: 1}}"; }

    @Override public KubernetesClient client(String cluster) { return fleet.cluster(cluster).newClient(); }

    @Override public long writes(String cluster) { return fleet.cluster(cluster).requests().writes(); }

    @Override public void resetWrites(String cluster) { fleet.cluster(cluster).requests().reset(); }
}
