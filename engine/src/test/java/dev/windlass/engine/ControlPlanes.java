package dev.windlass.engine;

import dev.windlass.kubetest.KubeCluster;
import dev.windlass.kubetest.RequestCounts;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Scenario clusters on real control planes, one per cluster name, reached like production clusters: through a
 * kubeconfig file, with server-side apply. Started the first time a scenario names the cluster, closed with the
 * fleet. Writes are counted by each API server itself.
 */
final class ControlPlanes implements Backend {

    /** What Windlass writes in the scenarios; controllers write other resources (pods, replica sets, leases, events). */
    static final List<String> WRITTEN_BY_WINDLASS = List.of("configmaps", "secrets", "namespaces", "services", "deployments",
            "statefulsets", "daemonsets", "jobs", "poddisruptionbudgets");

    /**
     * How long a cluster's controllers are given, in real time, to roll out what the engine applied. A scenario that
     * wants a Deployment to fail sets a progress deadline shorter than this.
     */
    static final Duration CATCH_UP = Duration.ofSeconds(10);

    private final Path dir;
    private final Map<String, KubeCluster> clusters = new ConcurrentHashMap<>();
    private final Map<String, Path> kubeconfigs = new ConcurrentHashMap<>();
    private final Map<String, RequestCounts> baselines = new ConcurrentHashMap<>();
    /** Whether the API servers call admission webhooks ({@link KubeCluster#startWithoutWebhookAdmission}). */
    private final boolean webhooks;

    ControlPlanes(Path dir) { this(dir, true); }

    ControlPlanes(Path dir, boolean webhooks) {
        this.dir = dir;
        this.webhooks = webhooks;
    }

    @Override public boolean real() { return true; }

    @Override public synchronized String connection(String cluster, int nodes, int controlPlaneNodes) {
        KubeCluster c = clusters.computeIfAbsent(cluster, name -> webhooks ? KubeCluster.start(nodeSpecs(name, nodes, controlPlaneNodes))
                : KubeCluster.startWithoutWebhookAdmission(nodeSpecs(name, nodes, controlPlaneNodes)));
        Path kubeconfig = kubeconfigs.computeIfAbsent(cluster, name -> c.kubeconfig(dir.resolve(name + ".kubeconfig")));
        baselines.computeIfAbsent(cluster, name -> c.requestCounts());
        return "{kubeconfig: {path: \"" + kubeconfig + "\"}}";
    }

    /** The sandbox's names: {@code <cluster>-cp-<i>} (labelled as control plane), then {@code <cluster>-worker-<i>}. */
    static List<KubeCluster.NodeSpec> nodeSpecs(String cluster, int nodes, int controlPlaneNodes) {
        List<KubeCluster.NodeSpec> specs = new ArrayList<>();
        for (int i = 1; i <= nodes; i++) {
            boolean cp = i <= controlPlaneNodes;
            specs.add(cp ? new KubeCluster.NodeSpec(cluster + "-cp-" + i, Map.of("node-role.kubernetes.io/control-plane", ""))
                    : KubeCluster.NodeSpec.named(cluster + "-worker-" + (i - controlPlaneNodes)));
        }
        return specs;
    }

    KubeCluster cluster(String name) {
        KubeCluster c = clusters.get(name);
        if (c == null) throw new IllegalArgumentException("no cluster " + name + " started; clusters: " + clusters.keySet());
        return c;
    }

    @Override public KubernetesClient client(String cluster) { return cluster(cluster).newClient(); }

    @Override public void advance(MutableClock clock, Duration step) {
        clock.advance(step);
        long deadline = System.nanoTime() + CATCH_UP.toNanos();
        for (String name : new TreeMap<>(clusters).keySet()) {
            if (cluster(name).isDown()) continue;
            try (KubernetesClient k = client(name)) {
                while (!rolledOutOrStuck(k) && System.nanoTime() < deadline) pause();
            }
        }
    }

    /**
     * Every Deployment Windlass manages has rolled out, or has failed (its progress deadline passed), or is stuck (a Pod
     * in its namespace that the scheduler could not place: nodes cordoned or not ready) with a deadline too far away to
     * wait for: waiting longer would change nothing a pass could see.
     */
    private static boolean rolledOutOrStuck(KubernetesClient k) {
        List<Deployment> deployments = k.apps().deployments().inAnyNamespace().withLabel("app.kubernetes.io/managed-by", "windlass").list().getItems();
        java.util.Set<String> stuckIn = new java.util.HashSet<>();
        for (Pod p : k.pods().inAnyNamespace().list().getItems()) if (unschedulable(p)) stuckIn.add(p.getMetadata().getNamespace());
        return deployments.stream().allMatch(d -> rolledOut(d) || deadlineExceeded(d)
                || stuckIn.contains(d.getMetadata().getNamespace()) && deadline(d).compareTo(CATCH_UP) > 0);
    }

    private static boolean rolledOut(Deployment d) {
        var s = d.getStatus();
        int replicas = d.getSpec().getReplicas() == null ? 1 : d.getSpec().getReplicas();
        return s != null && s.getObservedGeneration() != null && s.getObservedGeneration() >= d.getMetadata().getGeneration()
                && replicas == n(s.getUpdatedReplicas()) && replicas == n(s.getAvailableReplicas()) && replicas == n(s.getReplicas());
    }

    private static boolean deadlineExceeded(Deployment d) {
        return d.getStatus() != null && d.getStatus().getConditions() != null && d.getStatus().getConditions().stream()
                .anyMatch(c -> "Progressing".equals(c.getType()) && "ProgressDeadlineExceeded".equals(c.getReason()));
    }

    private static Duration deadline(Deployment d) {
        Integer seconds = d.getSpec().getProgressDeadlineSeconds();
        return Duration.ofSeconds(seconds == null ? 600 : seconds);
    }

    private static boolean unschedulable(Pod p) {
        return p.getStatus() != null && p.getStatus().getConditions() != null && p.getStatus().getConditions().stream()
                .anyMatch(c -> "PodScheduled".equals(c.getType()) && "False".equals(c.getStatus()));
    }

    private static int n(Integer i) { return i == null ? 0 : i; }

    @Override public void down(String cluster, boolean down) { cluster(cluster).down(down); }

    @Override public void nodeReady(String cluster, String node, boolean ready) {
        KubeCluster c = cluster(cluster);
        if (ready) c.resumeHeartbeat(node);
        else c.stopHeartbeat(node);
        c.awaitNodeReady(node, ready);
    }

    /** Stops (or starts) every kubelet first, then waits for them all: one node-lifecycle grace period, not one each. */
    @Override public void nodesReady(String cluster, List<String> nodes, boolean ready) {
        KubeCluster c = cluster(cluster);
        for (String node : nodes) {
            if (ready) c.resumeHeartbeat(node);
            else c.stopHeartbeat(node);
        }
        for (String node : nodes) c.awaitNodeReady(node, ready);
    }

    @Override public void noRoomForNewPods(String cluster, boolean full) {
        try (KubernetesClient k = client(cluster)) {
            for (String node : cluster(cluster).nodes()) {
                k.nodes().withName(node).edit(n -> {
                    n.getSpec().setUnschedulable(full ? Boolean.TRUE : null);
                    return n;
                });
            }
        }
    }

    @Override public long writes(String cluster) {
        RequestCounts since = counted(cluster).since(baselines.get(cluster));
        return WRITTEN_BY_WINDLASS.stream().mapToLong(since::objectWrites).sum();
    }

    /** The server counts a request once it has answered it; a last request, answered, makes every earlier one counted. */
    private RequestCounts counted(String cluster) {
        KubeCluster c = cluster(cluster);
        long sentinels = c.requestCounts().count("GET", "priorityclasses");
        try (KubernetesClient k = client(cluster)) {
            k.scheduling().v1().priorityClasses().withName("windlass-test-sentinel").get();
        }
        return dev.windlass.kubetest.Await.until(Duration.ofSeconds(10), "the sentinel request to be counted", c::requestCounts,
                counts -> counts.count("GET", "priorityclasses") > sentinels);
    }

    @Override public String writesSeen(String cluster) {
        RequestCounts since = counted(cluster).since(baselines.get(cluster));
        return WRITTEN_BY_WINDLASS.stream().flatMap(resource -> since.objectWriteSamples(resource).stream())
                .map(x -> x.verb() + " " + x.resource() + " (" + x.code() + "): " + x.count()).toList().toString();
    }

    /** What the clusters' own controllers and kwok write on their own: Pods, ReplicaSets, Events, Leases, endpoints, Nodes. */
    static final java.util.Set<String> WRITTEN_BY_CONTROLLERS = java.util.Set.of("pods", "replicasets", "events", "leases", "endpoints",
            "endpointslices", "nodes", "controllerrevisions");

    /**
     * Since the last {@link #resetWrites}, the writes to objects of every resource but those the controllers write
     * ({@link #WRITTEN_BY_CONTROLLERS}), by resource: subresources (statuses) and dry runs left out, any answer.
     */
    java.util.SortedMap<String, Long> objectWritesByResource(String cluster) {
        java.util.SortedMap<String, Long> out = new TreeMap<>();
        for (RequestCounts.Sample x : counted(cluster).since(baselines.get(cluster)).samples()) {
            if (!RequestCounts.WRITE_VERBS.contains(x.verb()) || x.dryRun() || !x.subresource().isEmpty() || x.count() <= 0) continue;
            if (WRITTEN_BY_CONTROLLERS.contains(x.resource())) continue;
            out.merge(x.verb() + " " + x.resource() + (x.group().isEmpty() ? "" : "." + x.group()), x.count(), Long::sum);
        }
        return out;
    }

    /** Every request the cluster's API server counted so far, by verb and resource (its own metrics). */
    RequestCounts requests(String cluster) { return counted(cluster); }

    @Override public void resetWrites(String cluster) { baselines.put(cluster, counted(cluster)); }

    @Override public long deletes(String cluster, String resource) {
        return counted(cluster).since(baselines.get(cluster)).samples().stream()
                .filter(x -> x.verb().equals("DELETE") && !x.dryRun() && x.subresource().isEmpty() && x.resource().equals(resource))
                .mapToLong(RequestCounts.Sample::count).sum();
    }

    @Override public void close() {
        clusters.values().parallelStream().forEach(KubeCluster::close);
        clusters.clear();
    }

    private static void pause() {
        try {
            Thread.sleep(100);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
