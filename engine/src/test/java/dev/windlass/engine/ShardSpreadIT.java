package dev.windlass.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.windlass.engine.lease.ShardLeases;
import dev.windlass.kubetest.Await;
import dev.windlass.kubetest.AuditedWrite;
import dev.windlass.kubetest.KubeApiServer;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Three {@code windlass run --shards 6} processes (the production jar, each its own JVM and its own API user), six
 * clusters pinned one to each shard, one real API server that holds the Leases and the clusters' objects (each cluster's
 * application writes its own namespace) and audits who wrote what. The shards spread two to a replica; one replica is
 * killed with SIGKILL and the other two hold three each; it comes back and each holds two again within two lease terms.
 * A change pushed at every step is written once to each cluster, by one replica (the server's audit log), and no
 * shard's holder changes but for the kill and the spreading.
 */
class ShardSpreadIT {
    static final Path JAR = Path.of("target", "windlass.jar");
    static final Duration LEASE = Duration.ofSeconds(8);
    static final Duration INTERVAL = Duration.ofSeconds(2);
    static final Duration WAIT = Duration.ofSeconds(120);
    static final int SHARDS = 6;

    @TempDir Path dir;
    final List<Process> processes = new ArrayList<>();
    final Map<String, Integer> ports = new TreeMap<>();

    static String cluster(int i) {
        return "apiVersion: windlass.dev/v1alpha1\nkind: Cluster\nmetadata: {name: c" + i + ", labels: {name: c" + i + "}}\nspec:\n"
                + "  connection: {kubeconfig: {path: kubeconfigs/c" + i + ".kubeconfig}}\n  shard: " + i + "\n";
    }

    static String app(int i) {
        return "apiVersion: windlass.dev/v1alpha1\nkind: Application\nmetadata: {name: app-" + i + "}\n"
                + "spec:\n  namespace: app-" + i + "\n  placement: {clusterSelector: {matchLabels: {name: c" + i + "}}}\n";
    }

    static String notes(String version) {
        return "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: notes}\ndata: {version: " + version + "}\n";
    }

    @Test
    void sixShardsSpreadOverThreeReplicasAcrossAKillAndARestartWithEveryChangeWrittenOnce() throws Exception {
        assertTrue(Files.exists(JAR), "run by failsafe after the jar is packaged: " + JAR.toAbsolutePath());
        try (TestFleet fleet = new TestFleet(dir);
             KubeApiServer server = KubeApiServer.start();
             KubernetesClient admin = server.newClient()) {
            fleet.push("six clusters on six shards, an app on each", c -> {
                for (int i = 0; i < SHARDS; i++) {
                    c = c.write("clusters/c" + i + ".yaml", cluster(i)).write("apps/app-" + i + "/app.yaml", app(i))
                            .write("apps/app-" + i + "/manifests/notes.yaml", notes("v1"));
                }
                return c;
            });
            Map<String, String> users = Map.of("windlass-0", "user-1", "windlass-1", "user-2", "windlass-2", "user-3");
            try {
                Map<String, Process> replicas = new TreeMap<>();
                for (String name : users.keySet()) replicas.put(name, start(fleet, server, name, users.get(name)));
                Map<String, Integer> first = Await.until(WAIT, "each replica holds two shards", () -> heldPerReplica(admin), ShardSpreadIT::evenly);
                awaitVersion(admin, "v1");
                push(fleet, "v2");
                awaitVersion(admin, "v2");
                Map<Integer, Integer> transitions = transitions(admin);

                // windlass-2 dies; its two shards go one to each of the others.
                List<Integer> orphaned = shardsOf(admin, "windlass-2");
                Instant killedAt = Instant.now();
                long killed = System.nanoTime();
                replicas.get("windlass-2").destroyForcibly();
                assertTrue(replicas.get("windlass-2").waitFor(10, TimeUnit.SECONDS));
                push(fleet, "v3");
                Map<String, Integer> afterKill = Await.until(WAIT, "the two left hold three shards each", () -> heldPerReplica(admin),
                        h -> h.getOrDefault("windlass-0", 0) == 3 && h.getOrDefault("windlass-1", 0) == 3);
                Duration takeover = Duration.ofNanos(System.nanoTime() - killed);
                awaitVersion(admin, "v3");
                Instant firstWrite = server.auditedWrites().stream()
                        .filter(w -> w.succeeded() && w.resource().equals("configmaps") && w.at().isAfter(killedAt) && !w.user().equals("user-3"))
                        .filter(w -> orphaned.stream().anyMatch(s -> w.namespace().equals("app-" + s)))
                        .map(AuditedWrite::at).min(Instant::compareTo).orElseThrow();

                // It comes back, as a StatefulSet would bring it back: same name, a new process, a new identity.
                Process again = start(fleet, server, "windlass-2", "user-3");
                replicas.put("windlass-2", again);
                Instant ready = Await.until(WAIT, "windlass-2 up and ready (its presence Lease)", () -> presenceOf(admin, "windlass-2"), t -> t != null);
                long readyNanos = System.nanoTime() - Duration.between(ready, Instant.now()).toNanos();
                push(fleet, "v4");
                Map<String, Integer> afterRestart = Await.until(WAIT, "each replica holds two shards again", () -> heldPerReplica(admin), ShardSpreadIT::evenly);
                Duration rebalanced = Duration.ofNanos(System.nanoTime() - readyNanos);
                seenOnTheDashboard(admin, ports.get("windlass-0"));
                push(fleet, "v5");
                awaitVersion(admin, "v5");

                // Every change written once to each cluster, by one replica.
                Map<String, List<String>> writers = new TreeMap<>();
                for (AuditedWrite w : server.auditedWrites()) {
                    if (!w.succeeded() || !w.resource().equals("configmaps") || !w.name().equals("notes") || w.body() == null) continue;
                    String version = w.body().path("data").path("version").asText();
                    writers.computeIfAbsent(w.namespace() + " " + version, k -> new ArrayList<>()).add(w.user());
                }
                List<String> doubles = writers.entrySet().stream().filter(e -> e.getValue().size() > 1).map(e -> e.getKey() + " by " + e.getValue()).toList();
                assertEquals(List.of(), doubles, "changes written more than once: " + writers);
                for (int i = 0; i < SHARDS; i++) {
                    for (String v : List.of("v1", "v2", "v3", "v5")) assertTrue(writers.containsKey("app-" + i + " " + v), "app-" + i + " " + v + ": " + writers);
                }

                // No holder changed but for the kill (two shards) and the spreading after the restart (two shards).
                Map<Integer, Integer> now = transitions(admin);
                int moves = 0;
                for (int s = 0; s < SHARDS; s++) moves += now.get(s) - transitions.get(s);
                assertEquals(4, moves, "Lease transitions after the first spread: before " + transitions + ", now " + now);
                assertTrue(rebalanced.compareTo(LEASE.multipliedBy(2)) <= 0,
                        "two shards each within two lease terms of windlass-2 being ready: " + rebalanced.toMillis() + " ms");
                System.out.printf("ShardSpreadIT: shards per replica at start %s, after SIGKILL of windlass-2 %s (all held %d ms after the kill, "
                                + "first write to its clusters %d ms after it), after its restart %s (%d ms after it was ready); "
                                + "Lease transitions besides the kill and the spreading: %d; changes written twice: %d%n",
                        first, afterKill, takeover.toMillis(), Duration.between(killedAt, firstWrite).toMillis(), afterRestart,
                        rebalanced.toMillis(), moves - 4, doubles.size());
            } catch (Throwable e) {
                keepLogs();
                throw e;
            } finally {
                for (Process p : processes) {
                    p.destroyForcibly();
                    p.waitFor(10, TimeUnit.SECONDS);
                }
            }
        }
    }

    /**
     * What an operator sees on a replica's dashboard, in a real browser: each shard's holder as the Leases say, and the
     * three replicas up with two shards each.
     */
    private static void seenOnTheDashboard(KubernetesClient admin, int port) throws IOException {
        try (dev.windlass.engine.dashboard.Browser b = dev.windlass.engine.dashboard.Browser.open(Path.of("target", "dashboard-screenshots"))) {
            b.go("http://127.0.0.1:" + port + "/");
            b.await(() -> !b.all("#shards").isEmpty() && b.text("p.shard-summary").contains("3 replicas up"), Duration.ofSeconds(30),
                    "the Shards section with three replicas up");
            for (int s = 0; s < SHARDS; s++) {
                // The page shows what the replica last read of the Leases and refreshes itself: it agrees within moments.
                int shard = s;
                java.util.function.Supplier<String> holder = () -> admin.resources(Lease.class).inNamespace("default")
                        .withName(ShardLeases.leaseName("windlass", shard)).get().getSpec().getHolderIdentity();
                java.util.function.Supplier<String> row = () -> b.text("table.shards tr[data-shard='" + shard + "'] td");
                b.await(() -> row.get().startsWith(holder.get()), Duration.ofSeconds(30),
                        "shard " + shard + ": the page to name the Lease's holder " + holder.get() + " (it says " + row.get() + ")");
            }
            List<String> replicas = b.all("ul.replicas li").stream().map(org.openqa.selenium.WebElement::getText).toList();
            assertEquals(3, replicas.size(), replicas.toString());
            assertTrue(replicas.stream().allMatch(r -> r.contains("holds 2")), replicas.toString());
            b.screenshot("fleet-shards");
        }
    }

    /** Two shards each for the three replicas, and none free. */
    static boolean evenly(Map<String, Integer> held) {
        return held.equals(Map.of("windlass-0", 2, "windlass-1", 2, "windlass-2", 2));
    }

    private static void push(TestFleet fleet, String version) throws IOException {
        fleet.push("notes " + version, c -> {
            for (int i = 0; i < SHARDS; i++) c = c.write("apps/app-" + i + "/manifests/notes.yaml", notes(version));
            return c;
        });
    }

    private static void awaitVersion(KubernetesClient admin, String version) {
        Await.until(WAIT, "notes " + version + " on every cluster", () -> {
            StringBuilder out = new StringBuilder();
            for (int i = 0; i < SHARDS; i++) {
                var m = admin.configMaps().inNamespace("app-" + i).withName("notes").get();
                out.append(m == null ? "none" : m.getData().get("version")).append(' ');
            }
            return out.toString().strip();
        }, s -> s.equals((version + " ").repeat(SHARDS).strip()));
    }

    /** Shards held per replica, by the name before its identity's random part, from the Leases; free ones under "". */
    private static Map<String, Integer> heldPerReplica(KubernetesClient admin) {
        Map<String, Integer> out = new TreeMap<>();
        for (int s = 0; s < SHARDS; s++) {
            Lease l = admin.resources(Lease.class).inNamespace("default").withName(ShardLeases.leaseName("windlass", s)).get();
            String holder = l == null || l.getSpec().getHolderIdentity() == null ? "" : l.getSpec().getHolderIdentity();
            out.merge(holder.contains("_") ? holder.substring(0, holder.indexOf('_')) : holder, 1, Integer::sum);
        }
        return out;
    }

    private static List<Integer> shardsOf(KubernetesClient admin, String replica) {
        List<Integer> out = new ArrayList<>();
        for (int s = 0; s < SHARDS; s++) {
            Lease l = admin.resources(Lease.class).inNamespace("default").withName(ShardLeases.leaseName("windlass", s)).get();
            if (l.getSpec().getHolderIdentity().startsWith(replica + "_")) out.add(s);
        }
        return out;
    }

    private static Map<Integer, Integer> transitions(KubernetesClient admin) {
        Map<Integer, Integer> out = new TreeMap<>();
        for (int s = 0; s < SHARDS; s++) {
            Lease l = admin.resources(Lease.class).inNamespace("default").withName(ShardLeases.leaseName("windlass", s)).get();
            out.put(s, l.getSpec().getLeaseTransitions() == null ? 0 : l.getSpec().getLeaseTransitions());
        }
        return out;
    }

    /** When the presence Lease of the replica named {@code name} (a live process's) was created, or null. */
    private static Instant presenceOf(KubernetesClient admin, String name) {
        return admin.resources(Lease.class).inNamespace("default").withLabel("windlass.dev/replica-of", "windlass").list().getItems().stream()
                .filter(l -> l.getSpec().getHolderIdentity() != null && l.getSpec().getHolderIdentity().startsWith(name + "_"))
                .filter(l -> l.getSpec().getRenewTime() != null && l.getSpec().getRenewTime().toInstant().isAfter(Instant.now().minus(LEASE)))
                .map(l -> l.getSpec().getAcquireTime().toInstant()).max(Instant::compareTo).orElse(null);
    }

    private Process start(TestFleet fleet, KubeApiServer server, String name, String user) throws IOException {
        // Each replica its own folder and its own API user: the clusters' kubeconfigs are found relative to it.
        Path home = Files.createDirectories(dir.resolve(name + "-" + System.nanoTime()));
        Files.createDirectories(home.resolve("kubeconfigs"));
        for (int i = 0; i < SHARDS; i++) server.kubeconfig(home.resolve("kubeconfigs/c" + i + ".kubeconfig"), user);
        Path management = server.kubeconfig(home.resolve("management.kubeconfig"), user);
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        int port;
        try (ServerSocket free = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = free.getLocalPort();
        }
        ports.put(name, port);
        ProcessBuilder pb = new ProcessBuilder(java, "-Xmx256m", "-jar", JAR.toAbsolutePath().toString(), "run", "--repo", fleet.origin.toString(),
                "--workdir", home.resolve("mirror").toString(), "--interval", INTERVAL.toSeconds() + "s", "--listen", "127.0.0.1:" + port,
                "--kubeconfig-dir", home.toString(), "--shards", Integer.toString(SHARDS), "--lease-namespace", "default",
                "--lease-duration", LEASE.toSeconds() + "s", "--management-kubeconfig", management.toString())
                .directory(home.toFile())
                .redirectOutput(dir.resolve(home.getFileName() + ".out").toFile()).redirectError(dir.resolve(home.getFileName() + ".log").toFile());
        pb.environment().put("HOSTNAME", name);
        Process p = pb.start();
        processes.add(p);
        return p;
    }

    /** A failure keeps the replicas' logs beside the report, where the temporary directory would lose them. */
    private void keepLogs() throws IOException {
        Path kept = Path.of("target", "failsafe-reports", getClass().getSimpleName());
        Files.createDirectories(kept);
        try (var files = Files.list(dir)) {
            for (Path f : files.filter(f -> f.toString().endsWith(".log") || f.toString().endsWith(".out")).collect(Collectors.toList())) {
                Files.copy(f, kept.resolve(f.getFileName()), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            }
        }
        System.err.println("the replicas' logs are kept in " + kept.toAbsolutePath());
    }
}
