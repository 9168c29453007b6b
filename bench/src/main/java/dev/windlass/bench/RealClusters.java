package dev.windlass.bench;

import dev.windlass.kubetest.KubeApiServer;
import dev.windlass.kubetest.RequestCounts;
import io.fabric8.kubernetes.client.Config;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Real kube-apiserver + etcd pairs on loopback, one per cluster, started from the binaries the test suite builds
 * ({@code scripts/kube-test-env.sh}). Requests are counted by each API server itself ({@code /metrics}), for the
 * resources the synthetic apps use; the servers' own housekeeping (leases, events) is left out.
 */
final class RealClusters implements Clusters {
    private static final Set<String> READ_VERBS = Set.of("GET", "LIST", "WATCH");
    private static final Set<String> OURS = Set.of("namespaces", "nodes", "serviceaccounts", "configmaps", "secrets",
            "deployments", "services");

    private final Map<String, KubeApiServer> servers = new LinkedHashMap<>();
    private final Map<String, Path> kubeconfigs = new LinkedHashMap<>();

    RealClusters(int clusters, Path dir) {
        try {
            for (int c = 0; c < clusters; c++) {
                String name = SyntheticRepo.cluster(c);
                KubeApiServer server = KubeApiServer.start();
                servers.put(name, server);
                kubeconfigs.put(name, server.kubeconfig(dir.resolve(name + ".kubeconfig")));
            }
        } catch (RuntimeException e) {
            close();
            throw e;
        }
    }

    @Override public List<String> names() { return new ArrayList<>(servers.keySet()); }

    @Override public Config config(String cluster) { return servers.get(cluster).config(); }

    @Override public boolean serverSideApply() { return true; }

    @Override public String connectionYaml(String cluster) { return "{kubeconfig: {path: \"" + kubeconfigs.get(cluster) + "\"}}"; }

    @Override public Counts counts() {
        long reads = 0, writes = 0;
        for (KubeApiServer server : servers.values()) {
            for (RequestCounts.Sample s : server.requestCounts().samples()) {
                if (!OURS.contains(s.resource()) || s.dryRun()) continue;
                if (READ_VERBS.contains(s.verb())) reads += s.count();
                if (RequestCounts.WRITE_VERBS.contains(s.verb())) writes += s.count();
            }
        }
        return new Counts(reads, writes);
    }

    @Override public String describe() { return servers.size() + " real kube-apiserver + etcd pairs on loopback"; }

    @Override public void close() { servers.values().forEach(KubeApiServer::close); }
}
