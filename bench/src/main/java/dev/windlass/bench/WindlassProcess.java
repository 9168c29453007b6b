package dev.windlass.bench;

import dev.windlass.kubetest.KubeCluster;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.SortedMap;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * {@code windlass run} in a JVM of its own, started as {@code ./windlass} starts it (the same JVM flags), polling the
 * repo every {@code interval}, told of a push by its {@code /webhook} (signed as a Git host signs it).
 */
final class WindlassProcess implements Contender {
    /** The flags {@code ./windlass}, the image's entrypoint and the Dockerfile pass to the JVM. */
    static final List<String> DEFAULT_FLAGS = List.of("--sun-misc-unsafe-memory-access=allow", "-XX:+UseCompactObjectHeaders", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-Xms16m", "-XX:MaxNewSize=24m", "-XX:MinHeapFreeRatio=10", "-XX:MaxHeapFreeRatio=30",
            "-XX:+UseStringDeduplication", "-Dio.netty.allocator.numDirectArenas=1");
    static final String USER = "user-1";
    private static final String SECRET = "bench-webhook-secret";

    private final List<String> jvmFlags;
    private final String interval;
    private int port;

    /** @param jvmFlags the flags {@code ./windlass} passes, and any the bench was asked to add */
    WindlassProcess(List<String> jvmFlags, String interval) {
        this.jvmFlags = List.copyOf(jvmFlags);
        this.interval = interval;
    }

    @Override public String name() { return "Windlass"; }

    @Override public List<String> users() { return List.of(USER); }

    @Override public SortedMap<String, byte[]> files(SyntheticRepo repo) { return repo.files(); }

    @Override public void install(KubernetesClient admin, SyntheticRepo repo, String repoUrl) {}

    @Override public List<Process> start(Path dir, KubeCluster cluster, String repoUrl) throws IOException {
        cluster.api().kubeconfig(dir.resolve("lab.kubeconfig"), USER);
        try (ServerSocket free = new ServerSocket(0)) {
            port = free.getLocalPort();
        }
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
        command.addAll(jvmFlags);
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), "dev.windlass.engine.cli.Main", "run", "--repo", repoUrl,
                "--interval", interval, "--kubeconfig-dir", dir.toString(), "--listen", "127.0.0.1:" + port,
                "--workdir", dir.resolve("mirror").toString()));
        ProcessBuilder builder = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true)
                .redirectOutput(dir.resolve("windlass.log").toFile());
        builder.environment().put("WINDLASS_WEBHOOK_SECRET", SECRET);
        return List.of(builder.start());
    }

    @Override public void pushed(KubernetesClient admin, SyntheticRepo repo) throws Exception {
        byte[] body = "{\"ref\": \"refs/heads/main\"}".getBytes(StandardCharsets.UTF_8);
        Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(SECRET.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/webhook"))
                .header("X-GitHub-Event", "push").header("X-Hub-Signature-256", "sha256=" + HexFormat.of().formatHex(mac.doFinal(body)))
                .POST(HttpRequest.BodyPublishers.ofByteArray(body)).build();
        try (HttpClient http = HttpClient.newHttpClient()) {
            HttpResponse<String> answer = http.send(request, HttpResponse.BodyHandlers.ofString());
            if (answer.statusCode() != 202) throw new IOException("the engine's webhook answered " + answer.statusCode() + ": " + answer.body());
        }
    }
}
