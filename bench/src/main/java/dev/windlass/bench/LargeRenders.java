package dev.windlass.bench;

import dev.windlass.kubetest.KubeCluster;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.storage.file.FileRepositoryBuilder;

/**
 * {@code windlass bench --scenario large-renders}: the engine, in a JVM of its own with a given heap, against a real
 * control plane, with a repo of a chart that renders 50 MiB, ten charts that render 8 MiB each and one small plain
 * application. It runs until the first pass has recorded every application's outcome and a few passes more, then
 * prints whether the engine stayed up (no OutOfMemoryError in its log, the process alive), which applications were
 * applied and which were held and why, how long the small one took, and the engine's peak resident memory (the
 * kernel's high-water mark, {@code VmHWM}).
 */
final class LargeRenders {
    /** ConfigMaps of about 2.5 KiB each: 20,000 of them print 50 MiB, 3,300 print 8 MiB. */
    static final int BIG = 20_000;
    static final int MEDIUM = 3_300;
    static final int MEDIUMS = 10;

    private final List<String> heaps;
    private final PrintStream out;

    LargeRenders(List<String> heaps, PrintStream out) {
        this.heaps = heaps;
        this.out = out;
    }

    void run(Path root) throws Exception {
        out.println("large renders: one chart of " + BIG + " ConfigMaps (about 50 MiB), " + MEDIUMS + " of " + MEDIUM
                + " (about 8 MiB each), one small app; the engine in a JVM of its own, on a real control plane");
        for (String heap : heaps) {
            Path dir = Files.createDirectories(root.resolve("large-renders-" + heap));
            try (KubeCluster cluster = KubeCluster.start(1)) {
                Path kubeconfig = cluster.kubeconfig(dir.resolve("lab.kubeconfig"));
                Path origin = dir.resolve("origin.git");
                try (Origin o = Origin.create(origin)) {
                    o.commit("main", null, repo(kubeconfig), "large renders");
                }
                once(heap, origin, dir);
            }
        }
    }

    private void once(String heap, Path origin, Path dir) throws Exception {
        Path log = dir.resolve("engine.log");
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
        command.addAll(heap.startsWith("-") ? List.of(heap.split(" ")) : List.of("-Xmx" + heap));
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), "dev.windlass.engine.cli.Main", "run", "--repo", origin.toString(),
                "--interval", "5s", "--kubeconfig-dir", dir.toString(), "--listen", "127.0.0.1:0", "--workdir", dir.resolve("mirror").toString()));
        Process engine = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        long started = System.nanoTime();
        Duration smallApplied = null;
        Map<String, String> outcomes = Map.of();
        try {
            long deadline = started + Duration.ofMinutes(6).toNanos();
            int passesAfter = -1;
            while (System.nanoTime() < deadline && engine.isAlive()) {
                Thread.sleep(1_000);
                outcomes = outcomes(origin);
                if (smallApplied == null && "Synced".equals(outcomes.get("small"))) smallApplied = Duration.ofNanos(System.nanoTime() - started);
                if (outcomes.size() == MEDIUMS + 2 && passesAfter < 0) passesAfter = 0;
                if (passesAfter >= 0 && ++passesAfter >= 20) break;  // 20 s more: four passes
            }
            long peak = kib(engine.pid(), "VmHWM");
            boolean alive = engine.isAlive();
            String said = Files.readString(log, StandardCharsets.UTF_8);
            long oom = said.lines().filter(l -> l.contains("OutOfMemoryError")).count();
            out.printf("  heap %-22s engine %s; %d OutOfMemoryError line(s) in its log; peak RSS %d MiB%n", heap,
                    alive ? "up" : "DOWN (exit " + engine.exitValue() + ")", oom, peak / 1024);
            out.printf("    small app applied %s after the engine started%n", smallApplied == null ? "never" : smallApplied.toSeconds() + " s");
            outcomes.forEach((app, outcome) -> out.printf("    %-8s %s%n", app, outcome));
        } finally {
            engine.destroy();
            if (!engine.waitFor(30, java.util.concurrent.TimeUnit.SECONDS)) engine.destroyForcibly();
        }
    }

    /** Each application's sync on the lab cluster as the status branch says, or the first error it records. */
    private static Map<String, String> outcomes(Path origin) throws IOException {
        Map<String, String> out = new LinkedHashMap<>();
        try (Repository repo = new FileRepositoryBuilder().setGitDir(origin.toFile()).build()) {
            for (String app : apps()) {
                var id = repo.resolve("refs/heads/windlass/status:status/apps/" + app + ".yaml");
                if (id == null) continue;
                String text = new String(repo.open(id).getBytes(), StandardCharsets.UTF_8);
                if (text.contains("sync: Synced")) out.put(app, "Synced");
                else if (text.contains("does not render")) out.put(app, "held: " + text.substring(text.indexOf("does not render")).lines().findFirst().orElse(""));
                else out.put(app, text.contains("reason: Invalid") ? "Invalid" : "OutOfSync");
            }
        }
        return out;
    }

    private static List<String> apps() {
        List<String> apps = new ArrayList<>(List.of("big"));
        for (int i = 0; i < MEDIUMS; i++) apps.add("medium" + i);
        apps.add("small");
        return apps;
    }

    private static Map<String, byte[]> repo(Path kubeconfig) {
        Map<String, String> files = new LinkedHashMap<>();
        files.put("clusters/lab.yaml", "apiVersion: windlass.dev/v1alpha1\nkind: Cluster\nmetadata: {name: lab}\nspec:\n  connection: {kubeconfig: {path: \""
                + kubeconfig.getFileName() + "\"}}\n");
        files.put("charts/many/Chart.yaml", "apiVersion: v2\nname: many\nversion: 0.1.0\n");
        files.put("charts/many/values.yaml", "count: 1\n");
        files.put("charts/many/templates/cms.yaml", """
                {{- $pad := repeat 2400 "x" }}
                {{- range $i := until (int .Values.count) }}
                ---
                apiVersion: v1
                kind: ConfigMap
                metadata: {name: cm-{{ $i }}}
                data: {pad: {{ $pad }}}
                {{- end }}
                """);
        files.put("apps/big/app.yaml", chartApp("big", BIG));
        for (int i = 0; i < MEDIUMS; i++) files.put("apps/medium" + i + "/app.yaml", chartApp("medium" + i, MEDIUM));
        files.put("apps/small/app.yaml", "apiVersion: windlass.dev/v1alpha1\nkind: Application\nmetadata: {name: small}\nspec:\n  namespace: small\n"
                + "  placement: {clusterNames: [lab]}\n");
        files.put("apps/small/manifests/cm.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: small}\ndata: {a: b}\n");
        Map<String, byte[]> bytes = new LinkedHashMap<>();
        files.forEach((p, t) -> bytes.put(p, t.getBytes(StandardCharsets.UTF_8)));
        return bytes;
    }

    private static String chartApp(String name, int count) {
        return "apiVersion: windlass.dev/v1alpha1\nkind: Application\nmetadata: {name: " + name + "}\nspec:\n  namespace: " + name
                + "\n  placement: {clusterNames: [lab]}\n  source: {helm: {chart: charts/many, values: {count: " + count + "}}}\n";
    }

    /** A field of /proc/PID/status, in KiB; 0 once the process is gone. */
    static long kib(long pid, String field) {
        try {
            for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
                if (line.startsWith(field + ":")) return Long.parseLong(line.replaceAll("[^0-9]", ""));
            }
        } catch (IOException | NumberFormatException e) {
            return 0;
        }
        return 0;
    }
}
