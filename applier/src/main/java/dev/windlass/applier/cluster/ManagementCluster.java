package dev.windlass.applier.cluster;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The cluster the engine runs in: where a Cluster with {@code inCluster: true} leads, and whose Secrets in the engine's
 * namespace hold the kubeconfigs of Clusters with {@code kubeconfigSecretRef}. In a Pod it is reached as the Pod's
 * ServiceAccount (the client library's in-cluster configuration); an engine on a host may be given a kubeconfig for it.
 *
 * @param config      how to reach it; null when there is none, and {@code unavailable} says why
 * @param namespace   the engine's namespace: the only one whose Secrets it reads
 * @param unavailable why there is no management cluster, or null
 */
public record ManagementCluster(Config config, String namespace, String unavailable) {

    public static final String DEFAULT_NAMESPACE = "windlass-system";

    /** No management cluster: Clusters that need one are reported broken, with the reason. */
    public static final ManagementCluster NONE = new ManagementCluster(null, DEFAULT_NAMESPACE,
            "the engine was started without a management cluster (not in a Pod, and no --management-kubeconfig)");

    /** As this process's Pod's ServiceAccount; NONE-like (with the reason) when the process does not run in a Pod. */
    public static ManagementCluster inCluster(String namespace) {
        // The client library's own test (the variable, or a system property of that name) for a process in a Pod.
        if (io.fabric8.kubernetes.client.utils.Utils.getSystemPropertyOrEnvVar("KUBERNETES_SERVICE_HOST") == null) {
            return new ManagementCluster(null, namespace, "the engine does not run in a Kubernetes Pod (KUBERNETES_SERVICE_HOST is "
                    + "not set); start it in the cluster, or with --management-kubeconfig");
        }
        return new ManagementCluster(Config.autoConfigure(null), namespace, null);
    }

    /**
     * From a kubeconfig file the engine's operator names on the command line (an engine outside the cluster). Fails
     * naming the file, never quoting it.
     */
    public static ManagementCluster fromKubeconfig(Path file, String namespace) {
        String text;
        try {
            text = Files.readString(file);
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read the management cluster's kubeconfig " + file + " (" + e.getClass().getSimpleName() + ")");
        }
        try {
            return new ManagementCluster(Config.fromKubeconfig(null, text, file.toString()), namespace, null);
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("unusable management cluster kubeconfig " + file + " (" + e.getClass().getSimpleName() + ")");
        }
    }

    /** A client configuration of the given one (tests, and library use). */
    public static ManagementCluster of(Config config, String namespace) { return new ManagementCluster(config, namespace, null); }

    /** A copy of the configuration, for one client; null when there is none. */
    Config copy() { return config == null ? null : new ConfigBuilder(config).build(); }
}
