package dev.windlass.engine.cli;

import dev.windlass.engine.lease.LeaseSettings;
import dev.windlass.engine.lease.Leadership;
import dev.windlass.engine.lease.ReplicaIdentity;
import dev.windlass.engine.lease.ShardLeases;
import java.time.Duration;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.function.IntConsumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
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

    @Option(names = "--shards", paramLabel = "N",
            description = "cut the fleet into N shards by cluster, one Lease each (<lease-name>-shard-<n>); each replica acts for the "
                    + "shards it holds, the shards spread over the replicas up (N/replicas each), the holder of shard 0 makes the "
                    + "fleet-wide decisions (implies --leader-elect)")
    Integer shards;

    @Option(names = "--preferred-shards", paramLabel = "N[,N...]", split = ",",
            description = "shards this replica prefers, a hint: a free one waits a little for it, and it keeps them longest when "
                    + "the shards spread to another replica (default: the StatefulSet ordinal at the end of the pod's name, modulo "
                    + "--shards, else none)")
    java.util.List<Integer> preferredShards;

    @Option(names = "--lease-duration", paramLabel = "DURATION",
            description = "lease duration; renew deadline, retry period and safety margin scale with it (default 15s)")
    String leaseDuration;

    @Option(names = "--management-kubeconfig", paramLabel = "FILE",
            description = "kubeconfig of the management cluster: it holds the Lease and the Secrets of kubeconfigSecretRef, and is the "
                    + "cluster inCluster: true means (default: the in-cluster service account)")
    Path managementKubeconfig;

    boolean sharded() { return shards != null; }

    /** The management cluster's client; null without {@code --leader-elect} or {@code --shards}. */
    KubernetesClient managementClient() throws IOException {
        if (!leaderElect && !sharded()) return null;
        Config config = managementKubeconfig != null ? Config.fromKubeconfig(Files.readString(managementKubeconfig)) : Config.autoConfigure(null);
        return new KubernetesClientBuilder().withConfig(config).build();
    }

    /** This replica's candidacy, not started yet; null without {@code --leader-elect}. */
    Leadership leadership(KubernetesClient management) throws IOException {
        if (management == null || sharded()) return null;
        ExecutorService renewals = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "windlass-lease");
            t.setDaemon(true);
            return t;
        });
        return new Leadership(management, settings(), renewals);
    }

    /** This replica's candidacy for every shard, started; null without {@code --shards}. */
    ShardLeases shardLeases(KubernetesClient management, IntConsumer onTaken) throws IOException {
        if (management == null || !sharded()) return null;
        if (shards < 1) throw new IllegalArgumentException("--shards takes 1 or more, not " + shards);
        SortedSet<Integer> preferred = new TreeSet<>();
        if (preferredShards != null) {
            for (int p : preferredShards) {
                if (p < 0 || p >= shards) throw new IllegalArgumentException("--preferred-shards " + p + " is not a shard: give 0 to " + (shards - 1));
                preferred.add(p);
            }
        } else {
            Matcher ordinal = Pattern.compile("-(\\d{1,6})$").matcher(host());
            if (ordinal.find()) preferred.add(Integer.parseInt(ordinal.group(1)) % shards);
        }
        return ShardLeases.stand(management, settings(), shards, preferred, onTaken);
    }

    private LeaseSettings settings() throws IOException {
        String namespace = leaseNamespace != null ? leaseNamespace
                : Files.isReadable(POD_NAMESPACE) ? Files.readString(POD_NAMESPACE).trim() : "default";
        if (leaseDuration == null) return LeaseSettings.defaults(namespace, leaseName, identity());
        Duration d = dev.windlass.policy.parse.Durations.parse(leaseDuration);
        if (d == null || d.toMillis() < 3000) throw new IllegalArgumentException("--lease-duration takes 3s or more, not " + leaseDuration);
        // The defaults' proportions: 15 s lease, 10 s renew deadline, 2 s retry, 5 s margin.
        return new LeaseSettings(namespace, leaseName, identity(), d, d.multipliedBy(2).dividedBy(3), d.dividedBy(7), d.dividedBy(3));
    }

    /**
     * This replica's identity ({@link ReplicaIdentity}): its Leases' holder identity, and the {@code Windlass-Replica} of
     * its status commits with or without leader election.
     */
    String identity() {
        if (identity == null) identity = ReplicaIdentity.generate();
        return identity;
    }

    private String identity;

    private static String host() {
        return ReplicaIdentity.host();
    }
}
