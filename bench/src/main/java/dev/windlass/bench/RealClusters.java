package dev.windlass.bench;

import dev.windlass.kubetest.KubeCluster;
import dev.windlass.kubetest.RequestCounts;
import io.fabric8.kubernetes.client.Config;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Real control planes on loopback, one per cluster ({@link KubeCluster}: etcd, kube-apiserver, kube-controller-manager,
 * kube-scheduler and a kwok kubelet per fake node), started from the binaries the test suite builds
 * ({@code scripts/kube-test-env.sh}). Deployments become Available through the real controllers, their Pods are bound
 * by the real scheduler and run by kwok, so health, "until settled" and "until healthy" are what a real cluster says.
 *
 * <p>Requests are counted by each API server itself ({@code /metrics}), for the resources the synthetic apps use.
 * The clusters' own components write too, and those writes are left out: statuses and other subresources (the
 * controllers' and kubelets' work), nodes, and the two objects the controller-manager creates in every new namespace
 * (the {@code default} ServiceAccount and the {@code kube-root-ca.crt} ConfigMap, see {@link #counts()}).
 */
final class RealClusters implements Clusters {
    private static final Set<String> READ_VERBS = Set.of("GET", "LIST", "WATCH");
    private static final Set<String> OURS = Set.of("namespaces", "nodes", "serviceaccounts", "configmaps", "secrets",
            "deployments", "services", "ingresses");
    /** Pods a kwok node takes (its capacity is 110); more replicas get more nodes. */
    private static final int PODS_PER_NODE = 100;

    private final Map<String, KubeCluster> clusters = new LinkedHashMap<>();
    private final Map<String, Path> kubeconfigs = new LinkedHashMap<>();
    private final int nodes;

    /** @param pods the Pods each cluster will run, to give it enough nodes */
    RealClusters(int count, int pods, Path dir) {
        this.nodes = Math.max(1, (pods + PODS_PER_NODE - 1) / PODS_PER_NODE);
        try {
            for (int c = 0; c < count; c++) {
                String name = SyntheticRepo.cluster(c);
                KubeCluster cluster = KubeCluster.start(nodes);
                clusters.put(name, cluster);
                kubeconfigs.put(name, cluster.kubeconfig(dir.resolve(name + ".kubeconfig")));
            }
        } catch (RuntimeException e) {
            close();
            throw e;
        }
    }

    @Override public List<String> names() { return new ArrayList<>(clusters.keySet()); }

    @Override public Config config(String cluster) { return clusters.get(cluster).config(); }

    @Override public boolean serverSideApply() { return true; }

    @Override public String connectionYaml(String cluster) { return "{kubeconfig: {path: \"" + kubeconfigs.get(cluster) + "\"}}"; }

    /**
     * Reads of the apps' resources, and writes to the objects themselves (not their statuses) of the apps' resources
     * but nodes. The controller-manager creates a {@code default} ServiceAccount and a {@code kube-root-ca.crt}
     * ConfigMap in every new namespace: its ServiceAccount creates are POSTs, which Windlass never sends for
     * ServiceAccounts on these servers (it creates objects by server-side apply), so POSTs of ServiceAccounts are left
     * out, and one ConfigMap POST per namespace POST is left out with them (Windlass POSTs namespaces and its own
     * inventory records).
     */
    @Override public Counts counts() {
        long reads = 0, writes = 0;
        for (KubeCluster cluster : clusters.values()) {
            long namespacePosts = 0;
            for (RequestCounts.Sample s : cluster.requestCounts().samples()) {
                if (!OURS.contains(s.resource()) || s.dryRun()) continue;
                if (READ_VERBS.contains(s.verb())) reads += s.count();
                if (!RequestCounts.WRITE_VERBS.contains(s.verb()) || !s.subresource().isEmpty() || s.resource().equals("nodes")) continue;
                if (s.verb().equals("POST") && s.resource().equals("serviceaccounts")) continue;
                if (s.verb().equals("POST") && s.resource().equals("namespaces") && s.code().equals("201")) namespacePosts += s.count();
                writes += s.count();
            }
            writes -= namespacePosts; // each one's kube-root-ca.crt
        }
        return new Counts(reads, writes);
    }

    @Override public void hang(String cluster, boolean hung) {
        if (hung) clusters.get(cluster).freeze();
        else clusters.get(cluster).thaw();
    }

    @Override public String describe() {
        return clusters.size() + " real control plane(s) (etcd, kube-apiserver, kube-controller-manager, kube-scheduler, "
                + nodes + " kwok node(s) each)";
    }

    /** Stops every process of every control plane (a frozen API server too) and deletes their files. */
    @Override public void close() { clusters.values().forEach(KubeCluster::close); }
}
