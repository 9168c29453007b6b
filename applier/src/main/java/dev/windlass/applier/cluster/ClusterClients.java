package dev.windlass.applier.cluster;

import dev.windlass.applier.cluster.ClusterConnection.Broken;
import dev.windlass.applier.cluster.ClusterConnection.Connected;
import dev.windlass.policy.model.Cluster;
import dev.windlass.applier.reads.ClusterReads;
import dev.windlass.applier.reads.WatchCache;
import dev.windlass.applier.reads.WriteMarks;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.http.HttpClient;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.file.FileSystemOptions;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One Kubernetes client per cluster name. Clusters from Git are {@linkplain #connect connected} through a kubeconfig
 * file, a kubeconfig in a Secret of the engine's namespace, or as the cluster the engine runs in ({@link ManagementCluster});
 * sandbox clusters are {@linkplain #registerSandbox registered} by the engine, which owns them, so that this module
 * never depends on the sandbox.
 */
public final class ClusterClients implements AutoCloseable {

    /** {@code source} is what the connection was built from, so an unchanged cluster keeps its client. */
    private record Entry(Object source, ClusterConnection connection) {}

    /** What a file-held connection was built from: the reference and the hash of the file it read. */
    private record FileSource(Cluster.Kubeconfig ref, String hash) {}

    /** What a Secret-held connection was built from: the reference and the hash of the kubeconfig it read. */
    private record SecretSource(Cluster.KubeconfigSecret ref, String hash) {}

    private static final org.slf4j.Logger log = org.slf4j.LoggerFactory.getLogger(ClusterClients.class);

    /**
     * The JSON mapping of every cluster's client. The client library would make one per client, and each learns the
     * model of every kind it reads or writes afresh: about 24 ms of CPU and 2.2 MiB of heap for the first Deployment,
     * ConfigMap, Service and Namespace it handles, for every cluster of the fleet. The mapping holds Java types only
     * (never what a cluster serves), and is safe to share between threads.
     */
    static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();

    private final ClientSettings settings;
    private final ManagementCluster management;
    private final Map<String, Entry> entries = new ConcurrentHashMap<>();
    private KubernetesClient secretReader;
    /**
     * The event loops of every cluster's HTTP client, closed with this. The client library would start one set per
     * client (up to twice as many threads as cores, and a checker thread): with a fleet of clusters, thousands of
     * threads for I/O that never blocks. A cluster that hangs leaves its connections idle and its requests to their
     * timeouts, which the loops keep for every cluster alike. The checker that warns of a loop blocked for more than two
     * seconds looks every ten seconds, not every second, so an idle engine is not woken for it sixty times a minute.
     */
    private final Vertx eventLoops = Vertx.vertx(new VertxOptions().setUseDaemonThread(true).setBlockedThreadCheckInterval(10_000)
            .setFileSystemOptions(new FileSystemOptions().setFileCachingEnabled(false).setClassPathResolvingEnabled(false)));
    private final HttpClient.Factory http1 = new EventLoopClients(eventLoops, false);
    private final HttpClient.Factory http2 = new EventLoopClients(eventLoops, true);
    /**
     * The threads every cluster's client hands its tasks to, closed with this: above all each watch event, read from
     * its JSON and stored ({@code reads.WatchCache}). The client library would start a pool per client that grows by
     * a thread for every watch with an event to deliver: about 8 per cluster, 469 at 60 clusters. Here each watch
     * still delivers its events one at a time and in order, on whichever of these threads is free, and every event is
     * a task of its own, so the watches of all clusters take turns. No task waits on a cluster: a hung cluster
     * delivers nothing, and a watch hands over its next event only when the last is done.
     */
    private final ThreadPoolExecutor tasks = fleetTasks();

    public ClusterClients() { this(ClientSettings.DEFAULT); }

    public ClusterClients(ClientSettings settings) { this(settings, ManagementCluster.NONE); }

    /** @param management the cluster the engine runs in, for {@code inCluster} and {@code kubeconfigSecretRef} clusters */
    public ClusterClients(ClientSettings settings, ManagementCluster management) {
        this.settings = settings;
        this.management = management;
    }

    /**
     * Connects a cluster declared in Git, or keeps its client when its connection did not change. A kubeconfig
     * that cannot be read yields a {@link Broken} connection rather than an exception: it is the user's to fix.
     * A sandbox cluster must have been registered by the engine; otherwise it is reported as not running.
     */
    public ClusterConnection connect(Cluster cluster) {
        String name = cluster.name();
        if (cluster.connection() instanceof Cluster.Kubeconfig k) return fromFile(name, k);
        if (cluster.connection() instanceof Cluster.InCluster in) {
            return entries.compute(name, (n, old) -> {
                if (old != null && in.equals(old.source())) return old;
                closeQuietly(old);
                Config config = management.copy();
                return new Entry(in, config == null ? new Broken("inCluster: " + management.unavailable()) : connected(config, true));
            }).connection();
        }
        if (cluster.connection() instanceof Cluster.KubeconfigSecret ref) return fromSecret(name, ref);
        Entry sandbox = entries.get(name);
        return sandbox != null ? sandbox.connection() : new Broken("sandbox cluster " + name + " is not running");
    }

    /** Registers a cluster the engine runs itself; the API server of such a cluster has no server-side apply. */
    public void registerSandbox(String cluster, Config config) { register(cluster, config, false); }

    /** Registers (or replaces) a cluster reached through {@code config}, which is copied, never changed. */
    public void register(String cluster, Config config, boolean serverSideApply) {
        Config own = new ConfigBuilder(config).build();
        Entry old = entries.put(cluster, new Entry(config, connected(own, serverSideApply)));
        closeQuietly(old);
    }

    /** The connection for {@code cluster}; {@link Broken} when it was never connected or registered. */
    public ClusterConnection connection(String cluster) {
        Entry e = entries.get(cluster);
        return e != null ? e.connection() : new Broken("no connection configured for cluster " + cluster);
    }

    public Set<String> clusters() { return new TreeSet<>(entries.keySet()); }

    /** The settings every client here is made with. */
    public ClientSettings settings() { return settings; }

    /** Forgets a cluster that left the fleet and closes its client. */
    public void remove(String cluster) { closeQuietly(entries.remove(cluster)); }

    @Override public void close() {
        for (String name : clusters()) remove(name);
        synchronized (this) {
            if (secretReader != null) secretReader.close();
            secretReader = null;
        }
        eventLoops.close();
        tasks.shutdownNow();
    }

    /** As many threads as cores (4 at least), started as tasks come and ended after a minute without one. */
    private static ThreadPoolExecutor fleetTasks() {
        int threads = Math.max(4, Runtime.getRuntime().availableProcessors());
        AtomicInteger count = new AtomicInteger();
        ThreadPoolExecutor pool = new ThreadPoolExecutor(threads, threads, 1, TimeUnit.MINUTES, new LinkedBlockingQueue<>(), r -> {
            Thread t = new Thread(r, "windlass-cluster-tasks-" + count.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
        pool.allowCoreThreadTimeOut(true);
        return pool;
    }

    /**
     * A client from a kubeconfig file on the engine's host, read again on every pass that connects the fleet: the
     * client is kept while the file is the same, and replaced as soon as it changed (a token or certificates rotated
     * in place), as a Secret's is. A file that cannot be read for a passing reason leaves a connected client as it was;
     * a missing one breaks it. Messages name the path and what is wrong, never what the file holds: they reach the
     * status branch, commit messages and {@code windlass status}.
     */
    private ClusterConnection fromFile(String name, Cluster.Kubeconfig k) {
        Path path = expandHome(k.path());
        String outside = outsideTheKubeconfigDir(path);
        if (outside != null) return replace(name, new FileSource(k, null), new Broken(outside));
        Entry old = entries.get(name);
        boolean sameRef = old != null && old.source() instanceof FileSource f && f.ref().equals(k);
        String text;
        try {
            text = Files.readString(path);
        } catch (java.nio.file.NoSuchFileException e) {
            return replace(name, new FileSource(k, null), new Broken("kubeconfig " + path + " does not exist"));
        } catch (IOException e) {
            String problem = "cannot read kubeconfig " + path + " (" + e.getClass().getSimpleName() + ")";
            if (sameRef && old.connection() instanceof Connected) {
                log.warn("cluster {}: {}; keeping its current client", name, problem);
                return old.connection();
            }
            return replace(name, new FileSource(k, null), new Broken(problem));
        }
        FileSource source = new FileSource(k, SecretKubeconfig.sha256(text));
        if (source.equals(old == null ? null : old.source())) return old.connection();
        if (sameRef && ((FileSource) old.source()).hash() != null) {
            log.info("cluster {}: kubeconfig {} changed; connecting with the new one", name, path);
        }
        return replace(name, source, fromKubeconfig(path, k, text));
    }

    /** A client from the text of the kubeconfig file {@code path}, with its credentials pinned unless they are issued on demand. */
    private ClusterConnection fromKubeconfig(Path path, Cluster.Kubeconfig k, String text) {
        String context = k.context() == null ? "" : " (context " + k.context() + ")";
        try {
            Config config = PinnedCredentials.pinUnlessIssued(Config.fromKubeconfig(k.context(), text, path.toString()), text, k.context());
            return connected(config, true);
        } catch (RuntimeException e) {
            // The client library reports a bad file or unknown context with assorted runtime exceptions, whose messages
            // can quote the file: only the kind of failure is kept.
            return new Broken("unusable kubeconfig " + path + context + ": not a kubeconfig with that context that the client can read ("
                    + e.getClass().getSimpleName() + ")");
        }
    }

    /**
     * Reads the Secret again, every pass: the client is kept while the kubeconfig in it is the same, and replaced as soon
     * as it changed (rotation without a restart). When the Secret cannot be read for a passing reason (the management
     * cluster does not answer), a cluster connected before keeps its client; a missing Secret or key breaks it.
     */
    private ClusterConnection fromSecret(String name, Cluster.KubeconfigSecret ref) {
        KubernetesClient reader = secretReader();
        if (reader == null) return replace(name, ref, new Broken("kubeconfigSecretRef: " + management.unavailable()));
        SecretKubeconfig.Read read = SecretKubeconfig.read(reader, management.namespace(), ref);
        Entry old = entries.get(name);
        boolean sameRef = old != null && old.source() instanceof SecretSource s && s.ref().equals(ref);
        if (!read.ok()) {
            if (read.transientProblem() && sameRef && old.connection() instanceof Connected) {
                log.warn("cluster {}: {}; keeping its current client", name, read.problem());
                return old.connection();
            }
            return replace(name, new SecretSource(ref, null), new Broken(read.problem()));
        }
        if (sameRef && read.hash().equals(((SecretSource) old.source()).hash())) return old.connection();
        String where = "Secret " + management.namespace() + "/" + ref.name() + " key " + ref.key();
        ClusterConnection connection;
        try {
            connection = connected(SecretKubeconfig.config(read.text(), ref.context(), where), true);
        } catch (IllegalArgumentException e) {
            connection = new Broken(e.getMessage());
        }
        if (sameRef) log.info("cluster {}: the kubeconfig in {} changed; connecting with the new one", name, where);
        return replace(name, new SecretSource(ref, read.hash()), connection);
    }

    private ClusterConnection replace(String name, Object source, ClusterConnection connection) {
        closeQuietly(entries.put(name, new Entry(source, connection)));
        return connection;
    }

    /**
     * What the Secret {@code name} of the engine's namespace holds, by key (decoded): an application's decryption keys
     * ({@code spec.decryption.secretRef}). {@code problem} says, naming the Secret and never its content, why it cannot
     * be had (no management cluster, HTTP 403, does not exist); then {@code data} is empty.
     */
    public record SecretData(Map<String, byte[]> data, String problem) {
        public SecretData { data = Map.copyOf(data); }
    }

    /** Reads the Secret {@code name} of the engine's namespace, by name, now. */
    public SecretData secretData(String name) {
        KubernetesClient reader = secretReader();
        String where = "Secret " + management.namespace() + "/" + name;
        if (reader == null) return new SecretData(Map.of(), "cannot read " + where + ": " + management.unavailable());
        io.fabric8.kubernetes.api.model.Secret secret;
        try {
            secret = reader.secrets().inNamespace(management.namespace()).withName(name).get();
        } catch (io.fabric8.kubernetes.client.KubernetesClientException e) {
            String status = e.getCode() == 0 ? "no answer from the management cluster" : "HTTP " + e.getCode()
                    + (e.getCode() == 403 ? " (forbidden: the engine may read Secrets of its own namespace only)" : "");
            return new SecretData(Map.of(), "cannot read " + where + ": " + status);
        }
        if (secret == null) return new SecretData(Map.of(), where + " does not exist");
        Map<String, byte[]> data = new java.util.TreeMap<>();
        if (secret.getData() != null) {
            for (Map.Entry<String, String> e : secret.getData().entrySet()) {
                try {
                    data.put(e.getKey(), java.util.Base64.getDecoder().decode(e.getValue()));
                } catch (IllegalArgumentException bad) {
                    return new SecretData(Map.of(), where + " key " + e.getKey() + " is not base64");
                }
            }
        }
        return new SecretData(data, null);
    }

    /** The management cluster's client that reads Secrets, made the first time one is needed; null when there is none. */
    private synchronized KubernetesClient secretReader() {
        if (secretReader == null) {
            Config config = management.copy();
            if (config == null) return null;
            config.setConnectionTimeout(Math.toIntExact(settings.connectTimeout().toMillis()));
            config.setRequestTimeout(Math.toIntExact(settings.requestTimeout().toMillis()));
            config.setRequestRetryBackoffLimit(settings.retryLimit());
            secretReader = new KubernetesClientBuilder().withConfig(config).build();
        }
        return secretReader;
    }

    /** Why {@code path} may not be read, or null: it must lead into the kubeconfig directory, symbolic links followed. */
    private String outsideTheKubeconfigDir(Path path) {
        if (settings.kubeconfigDir() == null) return null;
        try {
            Path dir = settings.kubeconfigDir().toRealPath();
            Path real = Files.exists(path) ? path.toRealPath() : path.toAbsolutePath().normalize();
            if (real.startsWith(dir)) return null;
        } catch (IOException e) {
            // An unreadable directory: nothing is inside it.
        }
        return "kubeconfig " + path + " is outside the kubeconfig directory " + settings.kubeconfigDir()
                + "; put it there, or start the engine with --kubeconfig-dir";
    }

    /** A client with the settings' limits; with watches, its writes are counted for the watch cache. */
    private Connected connected(Config config, boolean serverSideApply) {
        config.setConnectionTimeout(Math.toIntExact(settings.connectTimeout().toMillis()));
        config.setRequestTimeout(Math.toIntExact(settings.requestTimeout().toMillis()));
        config.setRequestRetryBackoffLimit(settings.retryLimit());
        config.setRequestRetryBackoffInterval(Math.toIntExact(settings.retryInterval().toMillis()));
        boolean http2 = settings.http2() && config.getMasterUrl() != null && config.getMasterUrl().startsWith("https:");
        KubernetesClientBuilder builder = new KubernetesClientBuilder().withConfig(config).withKubernetesSerialization(SERIALIZATION)
                .withHttpClientFactory(http2 ? this.http2 : http1).withTaskExecutor(tasks);
        if (!settings.watch()) return new Connected(builder.build(), serverSideApply);
        WriteMarks writes = new WriteMarks();
        KubernetesClient client = builder
                .withHttpClientBuilderConsumer(http -> http.addOrReplaceInterceptor("windlass-write-marks", writes))
                .build();
        return new Connected(client, serverSideApply, new WatchCache(client, writes));
    }

    /**
     * Waits until every cluster's watches match what the cluster holds (see {@link ClusterReads#awaitCurrent}); for
     * scripted changes made behind the engine's back (demo scenes, tests) that the next pass must see. True when all
     * did within {@code timeout}.
     */
    public boolean awaitCurrent(Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        boolean all = true;
        for (Entry e : entries.values()) {
            if (e.connection() instanceof Connected c) {
                Duration left = Duration.ofNanos(Math.max(0, deadline - System.nanoTime()));
                all &= c.reads().awaitCurrent(left);
            }
        }
        return all;
    }

    private static Path expandHome(String path) {
        return path.startsWith("~/") ? Path.of(System.getProperty("user.home"), path.substring(2)) : Path.of(path);
    }

    private static void closeQuietly(Entry e) {
        if (e != null && e.connection() instanceof Connected c) {
            c.reads().close();
            c.client().close();
        }
    }
}
