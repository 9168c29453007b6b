package dev.windlass.bench;

import static dev.windlass.bench.Figures.Unit.COUNT;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.dsl.NonDeletingOperation;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Function;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;

/**
 * What the same work costs done the least possible way, measured on the same clusters in the same run:
 * <ul>
 *   <li>the parse floor: read every file of the repo as YAML and hash it, nothing more;</li>
 *   <li>the round-trip floor: one GET per placed object (the least a full apply can cost);</li>
 *   <li>the naive loop: apply every object to every cluster, every pass, with the same client library.</li>
 * </ul>
 * Clusters are worked on in parallel with as many threads as the engine's applier uses.
 */
final class Baselines {
    static final int PARALLEL_CLUSTERS = 8;
    private static final KubernetesSerialization JSON = new KubernetesSerialization();

    private Baselines() {}

    static void parseFloor(Map<String, byte[]> files, Figures figures) {
        for (int run = 0; run < 3; run++) {
            long t0 = System.nanoTime();
            long documents = 0;
            MessageDigest sha = sha256();
            for (Map.Entry<String, byte[]> file : files.entrySet()) {
                byte[] content = file.getValue();
                sha.update(content);
                // A chart's templates are text for its template engine, not YAML: the floor hashes them only.
                if (file.getKey().startsWith("charts/")) continue;
                for (Object doc : new Yaml(new LoaderOptions()).loadAll(new String(content, StandardCharsets.UTF_8))) {
                    if (doc != null) documents++;
                }
            }
            sha.digest();
            figures.addNanos("floor: parse + hash every file", System.nanoTime() - t0);
            figures.add("  documents", COUNT, documents);
        }
    }

    /** One GET per object per cluster. */
    static void roundTripFloor(Clusters clusters, List<GenericKubernetesResource> objects, Figures figures) throws Exception {
        long t0 = System.nanoTime();
        perCluster(clusters, (client, name) -> {
            for (GenericKubernetesResource o : objects) {
                client.genericKubernetesResources(o.getApiVersion(), o.getKind()).inNamespace(o.getMetadata().getNamespace())
                        .withName(o.getMetadata().getName()).get();
            }
        });
        figures.addNanos("floor: one round trip per placed object", System.nanoTime() - t0);
    }

    /**
     * One GET per object per cluster, {@code inFlight} at once per cluster: the floor for an engine that has as many
     * writes in flight per cluster. On clusters that share the machine's cores with the engine it is bound by the
     * servers' CPU more than by latency.
     */
    static void roundTripFloorInFlight(Clusters clusters, List<GenericKubernetesResource> objects, int inFlight, Figures figures)
            throws Exception {
        long t0 = System.nanoTime();
        perCluster(clusters, (client, name) -> {
            ExecutorService gets = Executors.newFixedThreadPool(inFlight);
            try {
                List<Future<?>> sent = new ArrayList<>();
                for (GenericKubernetesResource o : objects) {
                    sent.add(gets.submit(() -> client.genericKubernetesResources(o.getApiVersion(), o.getKind())
                            .inNamespace(o.getMetadata().getNamespace()).withName(o.getMetadata().getName()).get()));
                }
                for (Future<?> f : sent) f.get();
            } finally {
                gets.shutdownNow();
            }
        });
        figures.addNanos(String.format(java.util.Locale.ROOT, "floor: one round trip per placed object, %d in flight per cluster", inFlight),
                System.nanoTime() - t0);
    }

    /** Applies every object to every cluster, as a CI job running a client-side apply each time would. */
    static void naiveLoop(Clusters clusters, List<GenericKubernetesResource> objects, Figures figures) throws Exception {
        for (int pass = 0; pass < 3; pass++) {
            Clusters.Counts before = clusters.counts();
            long t0 = System.nanoTime();
            perCluster(clusters, (client, name) -> {
                for (GenericKubernetesResource o : objects) apply(clusters.serverSideApply(), client, o, o.getMetadata().getNamespace());
            });
            figures.addNanos("naive loop: apply every object, one pass", System.nanoTime() - t0);
            figures.add("  API writes", COUNT, clusters.counts().minus(before).writes());
        }
    }

    /**
     * The naive loop's first pass, on clusters nobody wrote to yet: every app's namespace and every object created, as
     * a CI job running a client-side apply of the repo (namespaces included) does the first time. The same work as the
     * engine's first sync but for the inventory records, so the two can be compared for the same job; the loop's
     * later passes ({@link #naiveLoop}) replace objects that are there already, to which the clusters react far less.
     */
    static void naiveFirstPass(Clusters fresh, List<GenericKubernetesResource> objects, Figures figures) throws Exception {
        Clusters.Counts before = fresh.counts();
        CpuTime.Snapshot cpu0 = CpuTime.now();
        long t0 = System.nanoTime();
        createAll(fresh.names(), fresh::config, fresh.serverSideApply(), objects);
        long t1 = System.nanoTime();
        CpuTime.Snapshot cpu1 = CpuTime.now();
        figures.addNanos(NAIVE_FIRST, t1 - t0);
        figures.add("  API writes", COUNT, fresh.counts().minus(before).writes());
        if (CpuTime.available()) CpuTime.report(figures, CpuTime.between(cpu0, cpu1));
    }

    /** The naive loop's first pass: every app's namespace, then every object, created on every cluster. */
    static void createAll(List<String> clusters, Function<String, Config> configs, boolean serverSideApply,
            List<GenericKubernetesResource> objects) throws Exception {
        perCluster(clusters, configs, (client, name) -> {
            Set<String> namespaces = new HashSet<>();
            for (GenericKubernetesResource o : objects) {
                String namespace = o.getMetadata().getNamespace();
                if (namespaces.add(namespace)) {
                    apply(serverSideApply, client, new NamespaceBuilder().withNewMetadata().withName(namespace)
                            .endMetadata().build(), null);
                }
                apply(serverSideApply, client, o, namespace);
            }
        });
    }

    static final String NAIVE_FIRST = "naive loop: first pass, on new clusters (namespaces too)";

    /**
     * Server-side apply where the clusters have it, else create or replace: once, or again after a conflict. Each
     * attempt sends a copy, as the client library fills in what it read into the object it sends.
     */
    private static void apply(boolean serverSideApply, KubernetesClient client, HasMetadata o, String namespace) {
        for (int attempt = 1; ; attempt++) {
            var resource = namespace == null ? client.resource(JSON.clone(o)) : client.resource(JSON.clone(o)).inNamespace(namespace);
            try {
                if (serverSideApply) resource.fieldManager("naive-loop").forceConflicts().serverSideApply();
                else resource.createOr(NonDeletingOperation::update);
                return;
            } catch (io.fabric8.kubernetes.client.KubernetesClientException e) {
                // A replace races the simulated controllers writing status (409): read and replace again.
                if (e.getCode() != 409 || attempt == 3) throw e;
            }
        }
    }

    /**
     * The objects of a rendered fleet, as the engine rendered them for {@code cluster} (every cluster gets the same
     * objects but for values), each in its application's namespace.
     */
    static List<GenericKubernetesResource> objects(dev.windlass.policy.model.DesiredState rendered, String cluster) {
        List<GenericKubernetesResource> out = new ArrayList<>();
        for (var app : rendered.apps().values()) {
            for (var m : app.on(cluster).manifests()) {
                if (m.implicit()) continue;
                GenericKubernetesResource o = JSON.convertValue(m.body(), GenericKubernetesResource.class);
                o.getMetadata().setNamespace(app.namespace());
                out.add(o);
            }
        }
        return out;
    }

    /** Every object of the repo's app manifests, in the app's namespace. */
    static List<GenericKubernetesResource> objects(Map<String, byte[]> files) {
        List<GenericKubernetesResource> out = new ArrayList<>();
        for (Map.Entry<String, byte[]> f : files.entrySet()) {
            String[] parts = f.getKey().split("/");
            if (parts.length != 4 || !parts[0].equals("apps") || !parts[2].equals("manifests")) continue;
            GenericKubernetesResource o = JSON.unmarshal(new String(f.getValue(), StandardCharsets.UTF_8), GenericKubernetesResource.class);
            o.getMetadata().setNamespace(parts[1]);
            out.add(o);
        }
        return out;
    }

    private interface ClusterWork {
        void run(KubernetesClient client, String cluster) throws Exception;
    }

    private static void perCluster(Clusters clusters, ClusterWork work) throws Exception {
        perCluster(clusters.names(), clusters::config, work);
    }

    private static void perCluster(List<String> clusters, Function<String, Config> configs, ClusterWork work) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(PARALLEL_CLUSTERS);
        try {
            List<Future<?>> running = new ArrayList<>();
            for (String name : clusters) {
                running.add(pool.submit(() -> {
                    try (KubernetesClient client = new KubernetesClientBuilder().withConfig(configs.apply(name)).build()) {
                        work.run(client, name);
                    }
                    return null;
                }));
            }
            for (Future<?> f : running) f.get();
        } finally {
            pool.shutdownNow();
        }
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
