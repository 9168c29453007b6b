package dev.windlass.bench;

import dev.windlass.sandbox.ClusterSettings;
import dev.windlass.sandbox.Sandbox;
import dev.windlass.sandbox.SandboxCluster;
import dev.windlass.sandbox.sim.Simulator;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;

/**
 * The benchmark's clusters, in a process of their own so that the engine's heap and RSS are measured without
 * them: starts sandbox clusters, prints {@code cluster NAME URL} for each and then {@code ready}, and answers
 * commands on stdin: {@code counts} (requests each cluster received: {@code counts NAME READS WRITES}, then
 * {@code end}), {@code reset}, {@code hang NAME} and {@code thaw NAME} (the cluster accepts connections and answers
 * nothing, or answers again; each answered {@code ok}), {@code quit}.
 */
public final class ClusterHostMain {
    private ClusterHostMain() {}

    public static void main(String[] args) throws Exception {
        // Warnings only, on stderr: the engine's own logback.xml is on the class path too and would log every pass.
        System.setProperty("logback.configurationFile", "bench-logback.xml");
        int clusters = Integer.parseInt(args[0]);
        PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
        ClusterSettings settings = ClusterSettings.defaults().withRequestTimeout(Duration.ofSeconds(120));
        try (Sandbox sandbox = new Sandbox(settings, new Simulator(Duration.ofSeconds(1)))) {
            for (int c = 0; c < clusters; c++) {
                SandboxCluster cluster = sandbox.add(SyntheticRepo.cluster(c), 3, 3);
                out.println("cluster " + cluster.name() + " " + cluster.masterUrl());
            }
            // Every 2 s, not the demo's 500 ms: the simulator shares this JVM's cores with the API servers it plays kubelet for.
            sandbox.simulator().start(Duration.ofSeconds(2), Clock.systemUTC());
            out.println("ready");
            BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
            for (String line; (line = in.readLine()) != null; ) {
                switch (line.trim()) {
                    case "counts" -> {
                        for (SandboxCluster c : sandbox.clusters()) {
                            out.println("counts " + c.name() + " " + c.requests().reads() + " " + c.requests().writes());
                        }
                        out.println("end");
                    }
                    case "reset" -> {
                        sandbox.clusters().forEach(c -> c.requests().reset());
                        out.println("ok");
                    }
                    case "quit" -> { return; }
                    default -> {
                        String[] words = line.trim().split("\\s+");
                        if (words.length == 2 && (words[0].equals("hang") || words[0].equals("thaw"))) {
                            sandbox.cluster(words[1]).hang(words[0].equals("hang"));
                            out.println("ok");
                        } else {
                            out.println("unknown command: " + line);
                        }
                    }
                }
            }
        }
    }
}
