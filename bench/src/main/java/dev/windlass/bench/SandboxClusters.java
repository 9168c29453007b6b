package dev.windlass.bench;

import dev.windlass.sandbox.ClusterSettings;
import io.fabric8.kubernetes.client.Config;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Sandbox clusters run by {@link ClusterHostMain} in a child JVM, reached over loopback HTTP. */
final class SandboxClusters implements Clusters {
    private final Process process;
    private final BufferedReader from;
    private final PrintStream to;
    private final Map<String, String> urls = new LinkedHashMap<>();

    SandboxClusters(int clusters, String heap) {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        // The host stands in for API servers, which are compiled ahead of time: its code is compiled once, quickly
        // (the JIT's first tier only). With both tiers, the host's optimizing compiles of the mock server took about
        // 5 s of CPU in a first sync of 6 s at 200 apps x 5 clusters, on the two cores the engine shares with it, and
        // the host JVM is new in every run (so was every naive loop's first pass on new clusters).
        List<String> command = new ArrayList<>(List.of(java, "-Xmx" + heap, "-XX:+UseParallelGC", "-XX:TieredStopAtLevel=1"));
        // Extra JVM options for the cluster host, e.g. a flight recording: -Dbench.clusterJvm="-XX:StartFlightRecording=..."
        String extra = System.getProperty("bench.clusterJvm", "").trim();
        if (!extra.isEmpty()) command.addAll(List.of(extra.split("\\s+")));
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), ClusterHostMain.class.getName(), Integer.toString(clusters)));
        ProcessBuilder pb = new ProcessBuilder(command);
        pb.redirectError(ProcessBuilder.Redirect.INHERIT);
        try {
            process = pb.start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start the sandbox cluster host", e);
        }
        from = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        to = new PrintStream(process.getOutputStream(), true, StandardCharsets.UTF_8);
        for (String line; !"ready".equals(line = read()); ) {
            String[] f = line.split(" ");
            if (f.length == 3 && f[0].equals("cluster")) urls.put(f[1], f[2]);
        }
    }

    @Override public List<String> names() { return new ArrayList<>(urls.keySet()); }

    @Override public Config config(String cluster) {
        return ClusterSettings.defaults().withRequestTimeout(Duration.ofSeconds(120)).config(urls.get(cluster));
    }

    /** The sandbox's API server has no server-side apply; Windlass patches there, as on any such server. */
    @Override public boolean serverSideApply() { return false; }

    @Override public String connectionYaml(String cluster) { return "{sandbox: {nodes: 3, controlPlaneNodes: 3}}"; }

    @Override public synchronized Counts counts() {
        to.println("counts");
        long reads = 0, writes = 0;
        for (String line; !"end".equals(line = read()); ) {
            String[] f = line.split(" ");
            reads += Long.parseLong(f[2]);
            writes += Long.parseLong(f[3]);
        }
        return new Counts(reads, writes);
    }

    @Override public synchronized void hang(String cluster, boolean hung) {
        to.println((hung ? "hang " : "thaw ") + cluster);
        String said = read();
        if (!said.equals("ok")) throw new IllegalStateException("the sandbox cluster host said: " + said);
    }

    @Override public String describe() { return urls.size() + " sandbox clusters (mock API servers in a child JVM compiled by the JIT's first tier, 3 nodes each)"; }

    private String read() {
        try {
            String line = from.readLine();
            if (line == null) throw new IllegalStateException("the sandbox cluster host exited (" + process.waitFor() + ")");
            return line;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    @Override public void close() {
        to.println("quit");
        try {
            if (!process.waitFor(10, java.util.concurrent.TimeUnit.SECONDS)) process.destroyForcibly();
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }
}
