package dev.windlass.engine;

import dev.windlass.sandbox.Sandbox;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;

/** Scenario clusters on the embedded sandbox; faults are the simulator's, writes are counted by its request log. */
final class SandboxBackend implements Backend {
    private final Sandbox sandbox;
    private final java.time.Clock clock;

    SandboxBackend(Sandbox sandbox, java.time.Clock clock) {
        this.sandbox = sandbox;
        this.clock = clock;
    }

    @Override public boolean real() { return false; }

    @Override public String connection(String cluster, int nodes, int controlPlaneNodes) {
        return "{sandbox: {nodes: " + nodes + ", controlPlaneNodes: " + controlPlaneNodes + "}}";
    }

    @Override public KubernetesClient client(String cluster) { return sandbox.cluster(cluster).newClient(); }

    @Override public void advance(MutableClock clock, Duration step) {
        clock.advance(step);
        sandbox.simulator().tick(clock.instant());
    }

    @Override public void down(String cluster, boolean down) { sandbox.cluster(cluster).down(down); }

    @Override public void nodeReady(String cluster, String node, boolean ready) { sandbox.simulator().nodeReady(node, ready); }

    @Override public void noRoomForNewPods(String cluster, boolean full) {
        sandbox.simulator().noRoomForNewPods(cluster, full, clock.instant());
    }

    @Override public long writes(String cluster) { return sandbox.cluster(cluster).requests().writes(); }

    @Override public void resetWrites(String cluster) { sandbox.cluster(cluster).requests().reset(); }

    @Override public long deletes(String cluster, String resource) {
        return sandbox.cluster(cluster).requests().snapshot().entrySet().stream()
                .filter(e -> e.getKey().method().equals("DELETE") && e.getKey().path().contains("/" + resource + "/"))
                .mapToLong(java.util.Map.Entry::getValue).sum();
    }

    /** The sandbox belongs to the fleet that made it. */
    @Override public void close() {}
}
