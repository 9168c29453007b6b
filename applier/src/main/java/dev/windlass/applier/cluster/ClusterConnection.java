package dev.windlass.applier.cluster;

import io.fabric8.kubernetes.client.KubernetesClient;

/** What the applier holds for one cluster name: a usable client, or the reason there is none. */
public sealed interface ClusterConnection {

    /**
     * @param serverSideApply whether the API server is taken to support server-side apply; false for sandbox
     *                        clusters, true otherwise until detection through the API exists
     */
    record Connected(KubernetesClient client, boolean serverSideApply) implements ClusterConnection {}

    /**
     * No client could be built (kubeconfig missing or unreadable, unknown context, cluster never registered).
     * Reported as an unreachable cluster, since fixing the file on the host makes it reachable again.
     */
    record Broken(String message) implements ClusterConnection {}
}
