package dev.windlass.bench;

import static dev.windlass.bench.Figures.Unit.COUNT;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;

/**
 * The naive loop's first pass in a JVM of its own, started for it: its code runs for the first time, as the engine's
 * does in the first run's initial sync. The pass in the bench's JVM ({@link Baselines#naiveFirstPass}) runs after the
 * engine's sync has compiled the client library's code for it; this one pays its own JIT and class loading, as a job
 * that starts, applies the repo once and exits does. Its clusters are new ones, nobody wrote to them. Before the
 * timed pass it reads the objects and lists each cluster's namespaces once, as the engine's cold start reads the repo
 * and every cluster before its first sync.
 *
 * <p>The parent writes the objects and each cluster's connection settings to files, starts the child, and takes its
 * own CPU snapshots when the child says {@code start} and {@code end}: the child's process is left out of the
 * clusters' CPU, and the child reports its own CPU (and its JIT's and collector's) with {@code end}.
 */
final class NaiveFirstPassJvm {
    static final String NAME = "naive loop: first pass, on new clusters, in a new JVM";
    private static final KubernetesSerialization JSON = new KubernetesSerialization();

    private NaiveFirstPassJvm() {}

    static void run(Clusters fresh, List<GenericKubernetesResource> objects, Path dir, Figures figures) throws Exception {
        Path objectsFile = dir.resolve("naive-objects.json");
        Files.writeString(objectsFile, JSON.asJson(objects));
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), NaiveFirstPassJvm.class.getName(), objectsFile.toString(),
                Boolean.toString(fresh.serverSideApply())));
        for (String name : fresh.names()) command.add(connection(name, fresh.config(name), dir).toString());
        Clusters.Counts before = fresh.counts();
        Process child = new ProcessBuilder(command).redirectError(dir.resolve("naive-jvm.log").toFile()).start();
        try (BufferedReader from = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
            expect(from, "start", child, dir);
            CpuTime.Snapshot cpu0 = CpuTime.now();
            String[] end = expect(from, "end", child, dir);
            CpuTime.Snapshot cpu1 = CpuTime.now();
            Clusters.Counts after = fresh.counts();
            if (child.waitFor() != 0) throw new IllegalStateException("the naive loop's JVM failed; see " + dir.resolve("naive-jvm.log"));
            CpuTime.Used clusters = CpuTime.between(cpu0, cpu1, child.pid());
            figures.addNanos(NAME, cpu1.wallNanos() - cpu0.wallNanos());
            figures.add("  API writes", COUNT, after.minus(before).writes());
            if (CpuTime.available()) {
                figures.addNanos(CpuTime.JVM, Long.parseLong(end[1]));
                figures.addNanos("  CPU, this JVM's JIT compiler", Long.parseLong(end[2]));
                figures.addNanos("  CPU, this JVM's garbage collector", Long.parseLong(end[3]));
                figures.addNanos(CpuTime.CLUSTERS, (long) clusters.childrenNanos());
                figures.add("  cores busy, whole machine (average)", Figures.Unit.RATIO, clusters.coresBusy());
            }
        } finally {
            child.destroyForcibly();
        }
    }

    /** In the child: {@code objects.json serverSideApply cluster.properties...}. */
    public static void main(String[] args) throws Exception {
        List<GenericKubernetesResource> objects = Arrays.asList(JSON.unmarshal(Files.readString(Path.of(args[0])), GenericKubernetesResource[].class));
        boolean serverSideApply = Boolean.parseBoolean(args[1]);
        Map<String, Config> configs = new LinkedHashMap<>();
        for (int i = 2; i < args.length; i++) {
            Properties p = new Properties();
            try (var in = Files.newBufferedReader(Path.of(args[i]))) {
                p.load(in);
            }
            configs.put(p.getProperty("name"), config(p));
        }
        // As the engine's cold start reads every cluster before its first sync, the loop reads each cluster once first.
        for (Config config : configs.values()) {
            try (var client = new io.fabric8.kubernetes.client.KubernetesClientBuilder().withConfig(config).build()) {
                client.namespaces().list();
            }
        }
        CpuTime.Snapshot cpu0 = CpuTime.now();
        System.out.println("start");
        System.out.flush();
        Baselines.createAll(List.copyOf(configs.keySet()), configs::get, serverSideApply, objects);
        CpuTime.Used used = CpuTime.between(cpu0, CpuTime.now());
        System.out.printf("end %d %d %d%n", (long) used.jvmNanos(), (long) used.jitNanos(), (long) used.gcNanos());
        System.out.flush();
    }

    /** The settings of a cluster's client that the child needs, in a file of its own (the token is the bench's). */
    private static Path connection(String name, Config config, Path dir) throws IOException {
        Properties p = new Properties();
        p.setProperty("name", name);
        p.setProperty("masterUrl", config.getMasterUrl());
        p.setProperty("namespace", String.valueOf(config.getNamespace()));
        p.setProperty("connectionTimeout", Integer.toString(config.getConnectionTimeout()));
        p.setProperty("requestTimeout", Integer.toString(config.getRequestTimeout()));
        p.setProperty("requestRetryBackoffLimit", Integer.toString(config.getRequestRetryBackoffLimit()));
        p.setProperty("http2Disable", Boolean.toString(config.isHttp2Disable()));
        p.setProperty("trustCerts", Boolean.toString(config.isTrustCerts()));
        if (config.getOauthToken() != null) p.setProperty("oauthToken", config.getOauthToken());
        Path file = dir.resolve("naive-" + name + ".properties");
        try (var out = Files.newBufferedWriter(file)) {
            p.store(out, null);
        }
        return file;
    }

    private static Config config(Properties p) {
        return new ConfigBuilder(Config.empty())
                .withMasterUrl(p.getProperty("masterUrl"))
                .withNamespace(p.getProperty("namespace"))
                .withConnectionTimeout(Integer.parseInt(p.getProperty("connectionTimeout")))
                .withRequestTimeout(Integer.parseInt(p.getProperty("requestTimeout")))
                .withRequestRetryBackoffLimit(Integer.parseInt(p.getProperty("requestRetryBackoffLimit")))
                .withHttp2Disable(Boolean.parseBoolean(p.getProperty("http2Disable")))
                .withTrustCerts(Boolean.parseBoolean(p.getProperty("trustCerts")))
                .withOauthToken(p.getProperty("oauthToken"))
                .build();
    }

    private static int waitFor(Process child) {
        try {
            return child.waitFor();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return -1;
        }
    }

    private static String[] expect(BufferedReader from, String word, Process child, Path dir) throws IOException {
        for (String line; (line = from.readLine()) != null; ) {
            String[] f = line.split(" ");
            if (f[0].equals(word)) return f;
        }
        throw new IllegalStateException("the naive loop's JVM ended before saying " + word + " (exit " + waitFor(child)
                + "); see " + dir.resolve("naive-jvm.log"));
    }
}
