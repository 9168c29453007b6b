package dev.windlass.kubetest;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.storage.StorageClassBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A whole control plane on loopback: etcd and kube-apiserver ({@link KubeApiServer}), kube-controller-manager,
 * kube-scheduler, one kwok process per fake node as its kubelet, keeping the node alive and running the Pods bound
 * to it, and one more kwok process as the volume provisioner. Deployments, StatefulSets,
 * DaemonSets and Jobs become ready through the real controllers; PersistentVolumeClaims of the default storage class
 * are provisioned and bound; disruption budgets are computed by the real disruption controller.
 *
 * <p>Faults are real mechanisms, never a patched status: {@link #stopHeartbeat} stops a node's kubelet, so the
 * node-lifecycle controller marks it {@code Ready=Unknown} after
 * {@value #NODE_MONITOR_GRACE_SECONDS} s; {@link #freeze} stops the API server process, so the cluster accepts
 * connections but never answers. Starting takes about 8 s: share one per test class.
 */
public final class KubeCluster implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(KubeCluster.class);

    /** How long a node goes without a heartbeat before it is marked not ready (real clusters: 50 s). */
    public static final long NODE_MONITOR_GRACE_SECONDS = 10;
    /** The storage class kwok provisions volumes for; the default class of every test cluster. */
    public static final String STORAGE_CLASS = "kwok-volume";

    private static final Duration READY = Duration.ofSeconds(60);

    /** One fake node: its name and labels (for example {@code node-role.kubernetes.io/control-plane: ""}). */
    public record NodeSpec(String name, Map<String, String> labels) {
        public NodeSpec {
            labels = Map.copyOf(labels);
        }

        public static NodeSpec named(String name) { return new NodeSpec(name, Map.of()); }
    }

    private final KubeApiServer api;
    private final Controllers controllers;
    private final Path work;
    private final KubernetesClient admin;
    private final Binaries binaries;
    private final Path kubeconfig;
    private final KwokStages stages;
    private final Kubelet volumeProvisioner;
    private final Map<String, Kubelet> kubelets = new java.util.concurrent.ConcurrentHashMap<>();
    private final Thread onJvmExit;

    private KubeCluster(KubeApiServer api, Controllers controllers, Path work, Binaries binaries, Path kubeconfig) {
        this.api = api;
        this.controllers = controllers;
        this.work = work;
        this.binaries = binaries;
        this.kubeconfig = kubeconfig;
        this.admin = api.newClient();
        this.stages = KwokStages.split(binaries.kwokStages(), work);
        this.volumeProvisioner = Kubelet.volumeProvisioner(binaries, kubeconfig, work, stages.volumeStages());
        // Left running, the controllers and kubelets would outlive a test JVM that exits without closing them.
        this.onJvmExit = new Thread(this::stopProcesses, "kube-test-controllers-shutdown");
        Runtime.getRuntime().addShutdownHook(onJvmExit);
    }

    private void stopProcesses() {
        kubelets.values().forEach(Kubelet::stop);
        volumeProvisioner.stop();
        controllers.stop();
    }

    /** With two worker nodes, {@code node-0} and {@code node-1}. */
    public static KubeCluster start() { return start(2); }

    /** With {@code workers} nodes named {@code node-0} .. {@code node-<workers-1>}. */
    public static KubeCluster start(int workers) {
        List<NodeSpec> specs = new ArrayList<>();
        for (int i = 0; i < workers; i++) specs.add(NodeSpec.named("node-" + i));
        return start(specs);
    }

    /** From the binaries in {@code $WINDLASS_K8S_DIR} (default {@value Binaries#DEFAULT_DIR}), with these nodes. */
    public static KubeCluster start(List<NodeSpec> nodes) { return start(Binaries.fromEnvironment(), nodes); }

    public static KubeCluster start(Binaries binaries, List<NodeSpec> nodes) { return start(binaries, nodes, true); }

    /**
     * With these nodes, and an API server that calls no admission webhook (the {@code ValidatingAdmissionWebhook} and
     * {@code MutatingAdmissionWebhook} plugins disabled): kwok runs no Pod, so a webhook a chart installs (cert-manager's,
     * with {@code failurePolicy: Fail}) could never answer, and every object it validates would be refused with "failed
     * calling webhook". The webhook configurations are still stored and served; only the calls are left out.
     */
    public static KubeCluster startWithoutWebhookAdmission(List<NodeSpec> nodes) { return start(Binaries.fromEnvironment(), nodes, false); }

    private static KubeCluster start(Binaries binaries, List<NodeSpec> nodes, boolean webhooks) {
        binaries.requireControlPlane();
        long started = System.nanoTime();
        KubeApiServer api = KubeApiServer.start(binaries, webhooks);
        Path work = null;
        Controllers controllers = null;
        KubeCluster cluster = null;
        try {
            work = Files.createTempDirectory("windlass-controllers-");
            Path kubeconfig = api.kubeconfig(work.resolve("admin.kubeconfig"));
            controllers = Controllers.start(binaries, kubeconfig, work);
            cluster = new KubeCluster(api, controllers, work, binaries, kubeconfig);
            cluster.prepare(nodes);
            log.info("control plane with {} nodes ready at {} after {} ms", nodes.size(), api.url(),
                    (System.nanoTime() - started) / 1_000_000);
            return cluster;
        } catch (IOException | RuntimeException | AssertionError e) {
            if (cluster != null) cluster.stopProcesses();
            else if (controllers != null) controllers.stop();
            api.close();
            delete(work);
            if (e instanceof IOException io) throw new UncheckedIOException(io);
            if (e instanceof AssertionError a) throw new IllegalStateException(a.getMessage(), a);
            throw (RuntimeException) e;
        }
    }

    /** The default storage class, the nodes, and a wait until kwok has made them Ready and the controllers run. */
    private void prepare(List<NodeSpec> specs) {
        admin.storage().v1().storageClasses().resource(new StorageClassBuilder()
                .withNewMetadata().withName(STORAGE_CLASS)
                .addToAnnotations("storageclass.kubernetes.io/is-default-class", "true").endMetadata()
                .withProvisioner("kwok.x-k8s.io/volume").withReclaimPolicy("Delete").withVolumeBindingMode("Immediate")
                .build()).create();
        volumeProvisioner.start();
        for (NodeSpec spec : specs) addNode(spec);
        // The ServiceAccount controller creates "default" in every namespace: the controller-manager is working.
        awaitCluster("the controller-manager to create ServiceAccount default/default",
                () -> admin.serviceAccounts().inNamespace("default").withName("default").get() != null);
    }

    /** Registers a node and starts its kubelet; waits until it is Ready. */
    public void addNode(NodeSpec spec) {
        Map<String, String> labels = new LinkedHashMap<>();
        labels.put("kubernetes.io/hostname", spec.name());
        labels.put("kubernetes.io/os", "linux");
        labels.put("kubernetes.io/arch", "amd64");
        labels.put("type", "kwok");
        labels.putAll(spec.labels());
        Map<String, Quantity> resources = Map.of("cpu", new Quantity("32"), "memory", new Quantity("256Gi"),
                "pods", new Quantity("110"));
        admin.nodes().resource(new NodeBuilder()
                .withNewMetadata().withName(spec.name()).withLabels(labels)
                .addToAnnotations("node.alpha.kubernetes.io/ttl", "0").endMetadata()
                .withNewStatus().withCapacity(resources).withAllocatable(resources)
                .withNewNodeInfo().withKubeletVersion("fake").withKubeProxyVersion("fake").withOperatingSystem("linux")
                .withArchitecture("amd64").withContainerRuntimeVersion("kwok").withOsImage("kwok")
                .withKernelVersion("fake").withMachineID("").withSystemUUID("").withBootID("").endNodeInfo()
                .endStatus().build()).create();
        Kubelet kubelet = Kubelet.of(binaries, kubeconfig, work, stages.nodeStages(), spec.name());
        kubelets.put(spec.name(), kubelet);
        kubelet.start();
        awaitNodeReady(spec.name(), true);
    }

    /**
     * The node's kubelet stops: no more heartbeats, so the node-lifecycle controller marks it {@code Ready=Unknown}
     * within {@value #NODE_MONITOR_GRACE_SECONDS} s, taints it and marks its Pods not ready; after their toleration
     * (300 s by default) it evicts them. Nothing Windlass reads is written by the test.
     */
    public void stopHeartbeat(String node) { kubelet(node).stop(); }

    /** The node's kubelet starts again; its heartbeat resumes and the node-lifecycle controller marks it Ready. */
    public void resumeHeartbeat(String node) { kubelet(node).start(); }

    /** Every node's kubelet stops: the cluster keeps its API but can run nothing. */
    public void stopAllHeartbeats() { kubelets.values().forEach(Kubelet::stop); }

    private Kubelet kubelet(String node) {
        Kubelet k = kubelets.get(node);
        if (k == null) throw new IllegalArgumentException("no node " + node + " in this cluster; nodes: " + nodes());
        return k;
    }

    /** Waits until the node's Ready condition is {@code True} ({@code ready}) or anything else (not ready). */
    public void awaitNodeReady(String node, boolean ready) {
        awaitCluster("node " + node + (ready ? " Ready" : " not Ready"), () -> nodeReady(node) == ready);
    }

    private boolean nodeReady(String node) {
        Node n = admin.nodes().withName(node).get();
        return n != null && n.getStatus() != null && n.getStatus().getConditions() != null && n.getStatus().getConditions()
                .stream().anyMatch(c -> "Ready".equals(c.getType()) && "True".equals(c.getStatus()));
    }

    /** The names of the nodes registered so far. */
    public List<String> nodes() { return new ArrayList<>(new java.util.TreeSet<>(kubelets.keySet())); }

    /** The API server and etcd of this cluster. */
    public KubeApiServer api() { return api; }

    /** {@code https://127.0.0.1:<port>}. */
    public String url() { return api.url(); }

    /** See {@link KubeApiServer#config()}. */
    public Config config() { return api.config(); }

    /** A new client as the admin user; the caller closes it. */
    public KubernetesClient newClient() { return api.newClient(); }

    /** See {@link KubeApiServer#kubeconfig(Path)}. */
    public Path kubeconfig(Path file) { return api.kubeconfig(file); }

    /** See {@link KubeApiServer#requestCounts()}. */
    public RequestCounts requestCounts() { return api.requestCounts(); }

    /** See {@link KubeApiServer#freeze()}: the cluster accepts connections and never answers. */
    public void freeze() { api.freeze(); }

    /** See {@link KubeApiServer#thaw()}. */
    public void thaw() { api.thaw(); }

    /**
     * The API server is down ({@code true}: its process is stopped, every connection is refused) or up again
     * ({@code false}: started on the same port with the same etcd, returns once it is ready). The controllers and
     * kubelets keep running and reconnect, as on a cluster whose API server restarts.
     */
    public void down(boolean down) {
        api.down(down);
        this.down = down;
    }

    /** Whether {@link #down(boolean)} took the API server down. */
    public boolean isDown() { return down; }

    private volatile boolean down;

    /** The last log lines of the controllers, to explain what a test saw. */
    public String controllerLogs(int lines) {
        StringBuilder out = new StringBuilder(controllers.tails(lines));
        kubelets.forEach((n, k) -> out.append("--- kwok ").append(n).append('\n').append(k.tail(lines)).append('\n'));
        out.append("--- kwok volume provisioner\n").append(volumeProvisioner.tail(lines)).append('\n');
        return out.toString();
    }

    private void awaitCluster(String what, java.util.function.BooleanSupplier done) {
        long deadline = System.nanoTime() + READY.toNanos();
        while (!done.getAsBoolean()) {
            controllers.requireAlive();
            kubelets.values().forEach(Kubelet::requireAlive);
            volumeProvisioner.requireAlive();
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("timed out after " + READY.toSeconds() + "s waiting for " + what
                        + "; last log lines:\n" + controllerLogs(15));
            }
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for " + what, e);
            }
        }
    }

    /** Stops the controllers, then the API server and etcd, and deletes their files. */
    @Override public synchronized void close() {
        try {
            Runtime.getRuntime().removeShutdownHook(onJvmExit);
        } catch (IllegalStateException e) {
            // The JVM is shutting down and the hook runs anyway; stopping twice is harmless.
        }
        admin.close();
        stopProcesses();
        api.close();
        delete(work);
    }

    private static void delete(Path dir) {
        if (dir == null) return;
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            // Already gone: nothing a test could do about it.
        }
    }
}
