package dev.windlass.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.windlass.engine.lease.ShardLeases;
import dev.windlass.kubetest.Await;
import dev.windlass.kubetest.KubeApiServer;
import dev.windlass.kubetest.RequestCounts;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.eclipse.jgit.revwalk.RevCommit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Three {@code windlass run --shards 2} processes (the production jar, each its own JVM, started as an operator starts
 * them), one management API server holding the shards' Leases, two member clusters on real control planes: eu-1 pinned
 * to shard 0, eu-2 to shard 1, and web rolled out to them in two waves. The holder of shard 0, the coordinator, is killed
 * with SIGKILL in the middle of the rollout: another replica takes the shard within a lease duration and finishes the
 * rollout, and each wave is recorded once and applied once (the API servers' own counts of Deployment writes). Then the
 * holder of shard 1 is frozen with SIGSTOP until another takes its shard and applies a change; woken with SIGCONT, it
 * makes no cluster write and no status commit.
 */
class ShardTakeoverIT {
    static final Path JAR = Path.of("target", "windlass.jar");
    static final Duration LEASE = Duration.ofSeconds(6);
    static final Duration INTERVAL = Duration.ofSeconds(2);
    static final Duration WAIT = Duration.ofSeconds(120);

    @TempDir Path dir;
    final ObjectMapper json = new ObjectMapper();
    final List<Process> processes = new ArrayList<>();

    static final String POLICY = """
            apiVersion: windlass.dev/v1alpha1
            kind: RolloutPolicy
            metadata: {name: waves}
            spec:
              selector: {matchLabels: {tier: frontend}}
              type: Progressive
              groups:
                - {name: canary, clusterSelector: {matchLabels: {canary: "true"}}}
              unassignedClusters: LastGroup
              maxConcurrency: 1
              minSuccessTime: 20s
              progressDeadline: 5m
            """;

    static String app(String name, String labels) {
        return "apiVersion: windlass.dev/v1alpha1\nkind: Application\nmetadata: {name: " + name + ", labels: {" + labels + "}}\n"
                + "spec:\n  namespace: " + name + "\n  placement: {clusterSelector: {matchLabels: {env: prod}}}\n";
    }

    static String deployment(String version) {
        return """
                apiVersion: apps/v1
                kind: Deployment
                metadata: {name: web}
                spec:
                  replicas: 1
                  selector: {matchLabels: {app: web}}
                  template:
                    metadata: {labels: {app: web}}
                    spec:
                      containers: [{name: web, image: "ghcr.io/example/web:%s"}]
                """.formatted(version);
    }

    static String notes(String text) {
        return "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: notes}\ndata: {text: " + text + "}\n";
    }

    @Test
    void aKilledCoordinatorsRolloutGoesOnOnceAndAFrozenHolderWritesNothingWhenItWakes() throws Exception {
        assertTrue(Files.exists(JAR), "run by failsafe after the jar is packaged: " + JAR.toAbsolutePath());
        try (TestFleet fleet = new TestFleet(dir, true);
             KubeApiServer management = KubeApiServer.start();
             KubernetesClient leases = management.newClient()) {
            Path managementKubeconfig = management.kubeconfig(dir.resolve("management.kubeconfig"));
            fleet.push("two clusters on two shards; web in two waves; notes everywhere at once", c -> c
                    .write("clusters/eu-1.yaml", fleet.clusterYaml("eu-1", "env: prod, canary: \"true\"", 1, 0, "shard: 0"))
                    .write("clusters/eu-2.yaml", fleet.clusterYaml("eu-2", "env: prod, canary: \"false\"", 1, 0, "shard: 1"))
                    .write("policies/rollout.yaml", POLICY)
                    .write("apps/web/app.yaml", app("web", "tier: frontend"))
                    .write("apps/web/manifests/deployment.yaml", deployment("1.4.2"))
                    .write("apps/notes/app.yaml", app("notes", "tier: docs"))
                    .write("apps/notes/manifests/configmap.yaml", notes("one")));
            ControlPlanes clusters = (ControlPlanes) fleet.backend;
            try {
                Replica a = start(fleet, managementKubeconfig, "replica-a", 0);
                Replica b = start(fleet, managementKubeconfig, "replica-b", 1);
                String firstHolders = Await.until(WAIT, "replica-a holds shard 0 and replica-b shard 1", () -> holder(leases, 0) + " " + holder(leases, 1),
                        h -> h.matches("replica-a_\\S+ replica-b_\\S+"));
                Replica c = start(fleet, managementKubeconfig, "replica-c", 1);
                Await.until(WAIT, "web 1.4.2 and notes on both clusters", () -> image(fleet, "eu-1") + image(fleet, "eu-2")
                        + note(fleet, "eu-1") + note(fleet, "eu-2"), "1.4.21.4.2oneone"::equals);
                Await.until(WAIT, "web recorded healthy on both clusters, no rollout under way", () -> webStatus(fleet),
                        w -> w.split("health: Healthy", -1).length == 3 && !w.contains("result: Progressing"));

                // The rollout of web 1.5.0: wave 1 on eu-1 (shard 0, the coordinator's), then wave 2 on eu-2 (shard 1).
                RequestCounts eu1 = counted(clusters, "eu-1");
                RequestCounts eu2 = counted(clusters, "eu-2");
                int before = fleet.statusLog().size();
                fleet.push("web 1.5.0", ch -> ch.write("apps/web/manifests/deployment.yaml", deployment("1.5.0")));
                Await.until(WAIT, "wave 1 applied on eu-1", () -> image(fleet, "eu-1"), "1.5.0"::equals);
                assertEquals("1.4.2", image(fleet, "eu-2"), "wave 2 waits for wave 1's 20 s of health");

                // The coordinator dies in the middle of the rollout.
                long killed = System.nanoTime();
                Instant killedAt = Instant.now();
                a.process.destroyForcibly();  // SIGKILL
                assertTrue(a.process.waitFor(10, TimeUnit.SECONDS));
                String successor = Await.until(WAIT, "another replica holds shard 0", () -> holder(leases, 0),
                        h -> h != null && !h.startsWith("replica-a_"));
                Duration takeover = Duration.ofNanos(System.nanoTime() - killed);
                Replica next = successor.startsWith("replica-b_") ? b : c;
                Instant firstPass = Await.until(WAIT, successor + " runs a pass for shard 0", () -> firstPassFor(next, 0, killedAt),
                        t -> t != null);
                Await.until(WAIT, "the rollout finished", () -> String.join("\n", messagesSince(fleet, before)),
                        s -> s.contains("rolled out to 2 clusters"));
                assertEquals("1.5.0", image(fleet, "eu-2"), "eu-2 after the rollout was recorded finished; the status commits since the push:\n"
                        + String.join("\n---\n", messagesSince(fleet, before)));
                assertEquals(1, counted(clusters, "eu-1").since(eu1).objectWrites("deployments"), "web written once on eu-1");
                assertEquals(1, counted(clusters, "eu-2").since(eu2).objectWrites("deployments"), "web written once on eu-2");
                List<String> rollout = messagesSince(fleet, before);
                assertEquals(1, rollout.stream().filter(m -> m.contains("wave 1/2 started on eu-1")).count(), String.join("\n---\n", rollout));
                assertEquals(1, rollout.stream().filter(m -> m.contains("wave 2/2 started on eu-2")).count(), String.join("\n---\n", rollout));
                // Who wrote what, as an operator auditing the takeover reads it in the trailers: wave 1 the killed coordinator's,
                // wave 2 its successor's, each holding shard 0 then.
                String wave1 = rollout.stream().filter(m -> m.contains("wave 1/2 started on eu-1")).findFirst().orElseThrow();
                String wave2 = rollout.stream().filter(m -> m.contains("wave 2/2 started on eu-2")).findFirst().orElseThrow();
                assertTrue(wave1.contains("\nWindlass-Replica: " + firstHolders.split(" ")[0] + "\n"), wave1);
                assertTrue(java.util.regex.Pattern.compile("(?m)^Windlass-Shards: 0(,1)?$").matcher(wave1).find(), wave1);
                assertTrue(wave2.contains("\nWindlass-Replica: " + successor + "\n"), wave2);
                assertTrue(java.util.regex.Pattern.compile("(?m)^Windlass-Shards: 0(,1)?$").matcher(wave2).find(), wave2);
                // How long the takeover took is printed, not asserted: it follows the machine's load (a bench figure, not a test's).
                Duration gap = Duration.between(killedAt, firstPass);
                System.out.printf("SIGKILL of the coordinator: shard 0 held by %s %d ms later, its first pass for shard 0 %d ms after "
                        + "the kill (%d passes of %d s lost)%n", successor, takeover.toMillis(), gap.toMillis(),
                        gap.toMillis() / INTERVAL.toMillis(), INTERVAL.toSeconds());

                // Freeze the holder of shard 1 until another replica holds it and has applied a change.
                String frozenHolder = holder(leases, 1);
                Replica frozen = frozenHolder.startsWith("replica-b_") ? b : c;
                long stopped = System.nanoTime();
                signal(frozen.process, "STOP");
                String thawedSuccessor = Await.until(WAIT, "another replica holds shard 1", () -> holder(leases, 1),
                        h -> h != null && !h.equals(frozenHolder));
                Duration freezeTakeover = Duration.ofNanos(System.nanoTime() - stopped);
                int beforeNotes = fleet.statusLog().size();
                fleet.push("notes two", ch -> ch.write("apps/notes/manifests/configmap.yaml", notes("two")));
                Await.until(WAIT, "notes two on eu-2, applied by " + thawedSuccessor, () -> note(fleet, "eu-2"), "two"::equals);
                Await.until(WAIT, "notes two recorded", () -> story(fleet), s -> s.contains("notes"));
                String notesOnEu2 = Await.until(WAIT, "notes two on eu-2 recorded", () -> messagesSince(fleet, beforeNotes).stream()
                        .filter(m -> m.contains("notes") && m.contains("on eu-2")).findFirst().orElse(null), m -> m != null);
                assertTrue(notesOnEu2.contains("\nWindlass-Replica: " + thawedSuccessor + "\n"), "recorded by the new holder of shard 1:\n" + notesOnEu2);
                assertTrue(java.util.regex.Pattern.compile("(?m)^Windlass-Shards: (0,)?1$").matcher(notesOnEu2).find(), notesOnEu2);
                quiet(fleet);
                RequestCounts atThaw = counted(clusters, "eu-2");
                int commits = fleet.statusLog().size();
                Instant thawed = Instant.now();
                signal(frozen.process, "CONT");
                Await.until(WAIT, "the thawed replica ran its loop twice and wrote nothing", () -> refusalsSince(frozen, thawed), n -> n >= 2);
                RequestCounts afterThaw = counted(clusters, "eu-2");
                assertEquals(0, afterThaw.since(atThaw).objectWrites("configmaps") + afterThaw.since(atThaw).objectWrites("deployments"),
                        "no cluster write after SIGCONT");
                assertEquals(commits, fleet.statusLog().size(), "no status commit after SIGCONT:\n" + messages(fleet).get(0));
                assertEquals(thawedSuccessor, holder(leases, 1));
                System.out.printf("SIGSTOP of the holder of shard 1: %s held it %d ms later; after SIGCONT the old holder refused %d passes%n",
                        thawedSuccessor, freezeTakeover.toMillis(), refusalsSince(frozen, thawed));
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

    record Replica(String name, Process process, Path log) {}

    /** A failure keeps the replicas' logs and the origin repository beside the report, where the temporary directory would lose them. */
    private void keepLogs() throws IOException {
        Path kept = Path.of("target", "failsafe-reports", getClass().getSimpleName());
        Files.createDirectories(kept);
        try (var files = Files.list(dir)) {
            for (Path f : files.filter(f -> f.toString().endsWith(".jsonl") || f.toString().endsWith(".out")).toList()) {
                Files.copy(f, kept.resolve(f.getFileName()), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            }
        }
        Path origin = dir.resolve("origin.git");
        try (var tree = Files.walk(origin)) {
            for (Path f : tree.toList()) {
                Path to = kept.resolve("origin.git").resolve(origin.relativize(f).toString());
                if (Files.isDirectory(f)) Files.createDirectories(to);
                else Files.copy(f, to, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            }
        }
        System.err.println("the replicas' logs and the origin repository are kept in " + kept.toAbsolutePath());
    }

    private Replica start(TestFleet fleet, Path managementKubeconfig, String name, int preferred) throws IOException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Path log = dir.resolve(name + ".jsonl");
        ProcessBuilder pb = new ProcessBuilder(java, "-Xmx256m", "-jar", JAR.toString(), "run", "--repo", fleet.origin.toString(),
                "--workdir", dir.resolve(name + "-mirror").toString(), "--interval", INTERVAL.toSeconds() + "s", "--listen", "127.0.0.1:0",
                "--kubeconfig-dir", dir.toString(), "--log-format", "json", "--shards", "2", "--preferred-shards", Integer.toString(preferred),
                "--lease-namespace", "default", "--lease-duration", LEASE.toSeconds() + "s", "--management-kubeconfig",
                managementKubeconfig.toString())
                .redirectOutput(dir.resolve(name + ".out").toFile()).redirectError(log.toFile());
        pb.environment().put("HOSTNAME", name);
        Process p = pb.start();
        processes.add(p);
        return new Replica(name, p, log);
    }

    /** When {@code replica} finished its first pass for {@code shard} after {@code since}, from its log; null before. */
    private Instant firstPassFor(Replica replica, int shard, Instant since) {
        for (JsonNode l : lines(replica.log)) {
            String m = l.path("formattedMessage").asText();
            Instant at = Instant.ofEpochMilli(l.path("timestamp").asLong());
            if (m.startsWith("pass ") && m.matches("pass \\w+ for shards \\[[0-9, ]*\\b" + shard + "\\b[0-9, ]*\\].*") && at.isAfter(since)) return at;
        }
        return null;
    }

    /** Passes {@code replica} refused to run, or abandoned, since {@code since}: its loop ran and wrote nothing. */
    private long refusalsSince(Replica replica, Instant since) {
        return lines(replica.log).stream().filter(l -> Instant.ofEpochMilli(l.path("timestamp").asLong()).isAfter(since))
                .map(l -> l.path("formattedMessage").asText()).filter(m -> m.startsWith("no pass: ") || m.startsWith("pass abandoned")).count();
    }

    private List<JsonNode> lines(Path file) {
        try {
            if (!Files.exists(file)) return List.of();
            List<JsonNode> out = new ArrayList<>();
            for (String l : Files.readAllLines(file)) {
                if (l.startsWith("{")) out.add(json.readTree(l));
            }
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Waits until the status branch has not moved for three intervals. */
    private static void quiet(TestFleet fleet) {
        long[] last = {-1, System.nanoTime()};
        Await.until(WAIT, "the status branch to come to rest", () -> {
            int size = messages(fleet).size();
            if (size != last[0]) {
                last[0] = size;
                last[1] = System.nanoTime();
            }
            return System.nanoTime() - last[1];
        }, still -> still > INTERVAL.multipliedBy(3).toNanos());
    }

    private static void signal(Process p, String signal) throws Exception {
        assertEquals(0, new ProcessBuilder("kill", "-" + signal, Long.toString(p.pid())).inheritIO().start().waitFor());
    }

    /** The API server counts a request after answering it: a last request, answered and counted, makes every earlier one counted. */
    private static RequestCounts counted(ControlPlanes clusters, String cluster) {
        var c = clusters.cluster(cluster);
        long sentinels = c.requestCounts().count("GET", "priorityclasses");
        try (KubernetesClient k = c.newClient()) {
            k.scheduling().v1().priorityClasses().withName("windlass-test-sentinel").get();
        }
        return Await.until(Duration.ofSeconds(10), "the sentinel request to be counted", c::requestCounts,
                counts -> counts.count("GET", "priorityclasses") > sentinels);
    }

    private static String image(TestFleet fleet, String cluster) {
        try (KubernetesClient k = fleet.client(cluster)) {
            var d = k.apps().deployments().inNamespace("web").withName("web").get();
            return d == null ? "none" : d.getSpec().getTemplate().getSpec().getContainers().get(0).getImage().replace("ghcr.io/example/web:", "");
        }
    }

    private static String note(TestFleet fleet, String cluster) {
        try (KubernetesClient k = fleet.client(cluster)) {
            var m = k.configMaps().inNamespace("notes").withName("notes").get();
            return m == null ? "none" : m.getData().get("text");
        }
    }

    private static List<String> messages(TestFleet fleet) {
        try {
            return fleet.statusLog().stream().map(RevCommit::getFullMessage).toList();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * The messages of the status commits after the first {@code before}, newest first, from one read of the branch: two reads
     * would count a commit that lands between them and reach back to one made before.
     */
    private static List<String> messagesSince(TestFleet fleet, int before) {
        List<String> all = messages(fleet);
        return all.subList(0, all.size() - before);
    }

    private static String story(TestFleet fleet) { return String.join("\n", messages(fleet)); }

    private static String webStatus(TestFleet fleet) {
        try {
            String text = fleet.statusFile("status/apps/web.yaml");
            return text == null ? "" : text;
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    static String holder(KubernetesClient client, int shard) {
        Lease lease = client.resources(Lease.class).inNamespace("default").withName(ShardLeases.leaseName("windlass", shard)).get();
        return lease == null || lease.getSpec() == null ? null : lease.getSpec().getHolderIdentity();
    }
}
