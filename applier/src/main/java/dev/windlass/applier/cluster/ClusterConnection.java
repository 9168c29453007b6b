package dev.windlass.applier.cluster;

import dev.windlass.applier.reads.ClusterReads;
import dev.windlass.applier.reads.DirectReads;
import io.fabric8.kubernetes.client.KubernetesClient;

/** What the applier holds for one cluster name: a usable client, or the reason there is none. */
public sealed interface ClusterConnection {

    /**
     * @param serverSideApply whether the API server is taken to support server-side apply; false for sandbox
     *                        clusters, true otherwise until detection through the API exists
     * @param reads           how observations read the cluster: from watches, or one LIST each time
     */
    record Connected(KubernetesClient client, boolean serverSideApply, ClusterReads reads) implements ClusterConnection {

        /** Reads by LIST every time. */
        public Connected(KubernetesClient client, boolean serverSideApply) { this(client, serverSideApply, new DirectReads(client)); }
    }

    /**
     * No client could be built (kubeconfig missing or unreadable, unknown context, cluster never registered).
     * Reported as an unreachable cluster, since fixing the file on the host makes it reachable again.
     */
    record Broken(String message) implements ClusterConnection {}
}
