package dev.windlass.engine.cli;

import dev.windlass.engine.lease.LeaseSettings;
import dev.windlass.engine.lease.Leadership;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.io.IOException;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import picocli.CommandLine.Option;

/** {@code windlass run}'s leader election: which Lease, in which management cluster. */
final class LeaderOptions {
    static final Path POD_NAMESPACE = Path.of("/var/run/secrets/kubernetes.io/serviceaccount/namespace");

    @Option(names = "--leader-elect", description = "run passes only while this replica holds the Lease (several replicas: one writes)")
    boolean leaderElect;

    @Option(names = "--lease-namespace", paramLabel = "NS", description = "the Lease's namespace (default: the pod's own, else default)")
    String leaseNamespace;

    @Option(names = "--lease-name", paramLabel = "NAME", defaultValue = "windlass", description = "the Lease's name (default: ${DEFAULT-VALUE})")
    String leaseName;

    @Option(names = "--management-kubeconfig", paramLabel = "FILE",
            description = "kubeconfig of the management cluster: it holds the Lease and the Secrets of kubeconfigSecretRef, and is the "
                    + "cluster inCluster: true means (default: the in-cluster service account)")
    Path managementKubeconfig;

    /** The management cluster's client; null without {@code --leader-elect}. */
    KubernetesClient managementClient() throws IOException {
        if (!leaderElect) return null;
        Config config = managementKubeconfig != null ? Config.fromKubeconfig(Files.readString(managementKubeconfig)) : Config.autoConfigure(null);
        return new KubernetesClientBuilder().withConfig(config).build();
    }

    /** This replica's candidacy, not started yet; null without {@code --leader-elect}. */
    Leadership leadership(KubernetesClient management) throws IOException {
        if (management == null) return null;
        String namespace = leaseNamespace != null ? leaseNamespace
                : Files.isReadable(POD_NAMESPACE) ? Files.readString(POD_NAMESPACE).trim() : "default";
        ExecutorService renewals = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "windlass-lease");
            t.setDaemon(true);
            return t;
        });
        return new Leadership(management, LeaseSettings.defaults(namespace, leaseName, identity()), renewals);
    }

    /** The pod's name (or the host's), and a random part: two processes on one host are two replicas. */
    private static String identity() throws IOException {
        String host = System.getenv("HOSTNAME");
        if (host == null || host.isBlank()) host = InetAddress.getLocalHost().getHostName();
        return host + "_" + UUID.randomUUID().toString().substring(0, 8);
    }
}
