package dev.windlass.engine;

import dev.windlass.kubetest.KubeApiServer;
import dev.windlass.kubetest.RequestCounts;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.file.Path;

/**
 * Scenario clusters on a real kube-apiserver, reached like any production cluster: through a kubeconfig
 * file, with server-side apply. Writes are counted by the API server itself.
 */
final class RealBackend implements Backend {
    private final KubeApiServer server;
    private final Path kubeconfig;
    private RequestCounts baseline;

    RealBackend(KubeApiServer server, Path dir) {
        this.server = server;
        this.kubeconfig = server.kubeconfig(dir.resolve("c1.kubeconfig"));
        this.baseline = server.requestCounts();
    }

    @Override public String connection(String cluster) { return "{kubeconfig: {path: \"" + kubeconfig + "\"}}"; }

    @Override public KubernetesClient client(String cluster) { return server.newClient(); }

    /** Writes to the kinds scenarios use; the API server's own lease and event writes are not ours. */
    @Override public long writes(String cluster) {
        RequestCounts since = server.requestCounts().since(baseline);
        return since.writes("configmaps") + since.writes("namespaces") + since.writes("secrets");
    }

    @Override public void resetWrites(String cluster) { baseline = server.requestCounts(); }
}
