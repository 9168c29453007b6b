package dev.windlass.applier.support;

import dev.windlass.applier.Applier;
import dev.windlass.applier.cluster.ClusterClients;
import dev.windlass.kubetest.Await;
import dev.windlass.kubetest.KubeApiServer;
import dev.windlass.kubetest.RequestCounts;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A real API server as cluster {@value #NAME}, with an admin client to look at it the way a user would, and
 * request counts that are complete: the server counts a request after answering it, so a sentinel request is
 * sent last and awaited before the counts are read.
 */
public final class RealCluster implements AutoCloseable {

    public static final String NAME = "lab";

    private static final AtomicInteger NAMESPACES = new AtomicInteger();

    private final KubeApiServer server;
    private final dev.windlass.kubetest.KubeCluster controlPlane;
    private final KubernetesClient admin;

    private RealCluster(KubeApiServer server, dev.windlass.kubetest.KubeCluster controlPlane) {
        this.server = server;
        this.controlPlane = controlPlane;
        this.admin = server.newClient();
        // A new API server writes the EndpointSlice of its own Service in its first seconds: a test counting writes
        // must not start before it has.
        Await.until(Duration.ofSeconds(30), "the API server's own EndpointSlice (default/kubernetes)",
                () -> admin.discovery().v1().endpointSlices().inNamespace("default").withName("kubernetes").get(), java.util.Objects::nonNull);
    }

    /** An API server alone: nothing schedules or runs Pods. */
    public static RealCluster start() { return new RealCluster(KubeApiServer.start(), null); }

    /** A whole control plane (controllers, scheduler, kwok kubelets) with these nodes, so Pods really run. */
    public static RealCluster withNodes(String... nodes) {
        var cp = dev.windlass.kubetest.KubeCluster.start(java.util.Arrays.stream(nodes).map(dev.windlass.kubetest.KubeCluster.NodeSpec::named).toList());
        return new RealCluster(cp.api(), cp);
    }

    public KubeApiServer server() { return server; }

    public KubernetesClient admin() { return admin; }

    /** A new applier with its own clients, as after an engine restart; the caller closes it. */
    public Applier newApplier() {
        ClusterClients clients = new ClusterClients();
        clients.register(NAME, server.config(), true);
        return new Applier(clients);
    }

    /** Creates a fresh namespace, so tests sharing the server do not see each other's objects. */
    public String newNamespace(String prefix) {
        String name = prefix + "-" + NAMESPACES.incrementAndGet();
        admin.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(name).endMetadata().build()).create();
        return name;
    }

    public RequestCounts counts() { return server.requestCounts(); }

    /**
     * Everything the server counted since {@code before}, including every request answered before this call. Leases are
     * left out: the API server renews its own identity lease every ten seconds, and no test here writes a Lease.
     */
    public RequestCounts countsSince(RequestCounts before) {
        admin.scheduling().v1().priorityClasses().withName("windlass-test-sentinel").get();
        return Await.until(Duration.ofSeconds(10), "the sentinel request to be counted",
                () -> server.requestCounts().since(before), c -> c.count("GET", "priorityclasses") >= 1)
                .without("coordination.k8s.io", "leases");
    }

    @Override public void close() {
        admin.close();
        if (controlPlane != null) controlPlane.close();
        else server.close();
    }
}
