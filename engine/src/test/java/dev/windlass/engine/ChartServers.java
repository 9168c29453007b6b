package dev.windlass.engine;

import com.sun.net.httpserver.HttpServer;
import dev.windlass.render.RenderTools;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The tests' own chart sources on loopback: a chart repository (a folder of packaged charts and the {@code index.yaml}
 * the pinned helm writes, served over HTTP) and an OCI registry (go-containerregistry's, built pinned by
 * {@code scripts/render-tools.sh}, in memory), charts pushed to it with the pinned {@code helm push}. The charts are
 * those {@code scripts/chart-fixtures.sh} packages from their publishers' sources.
 */
final class ChartServers implements AutoCloseable {
    /** Where {@code scripts/chart-fixtures.sh} puts the charts (it reads {@code WINDLASS_CHARTS_CACHE} too). */
    static final String CHARTS = "podinfo-6.14.1-cert-manager-v1.21.2-gateway-helm-v1.9.1";
    private static final Pattern SERVING = Pattern.compile("serving on port (\\d+)");

    private final Path work;
    private final HttpServer repository;
    private final Process registry;
    private final int registryPort;

    private ChartServers(Path work, HttpServer repository, Process registry, int registryPort) {
        this.work = work;
        this.repository = repository;
        this.registry = registry;
        this.registryPort = registryPort;
    }

    /** The packaged charts; fails naming the script when they are not there. */
    static Path charts() {
        String cache = System.getenv("WINDLASS_CHARTS_CACHE");
        Path dir = (cache != null && !cache.isBlank() ? Path.of(cache) : Path.of(System.getProperty("user.home"), ".cache", "windlass", "charts"))
                .resolve(CHARTS);
        if (!Files.isDirectory(dir)) throw new IllegalStateException(dir + " is missing: run scripts/chart-fixtures.sh");
        return dir;
    }

    /** Serves {@code repositoryCharts} from a chart repository and starts an empty registry. */
    static ChartServers start(Path work, List<String> repositoryCharts) throws Exception {
        Path served = Files.createDirectories(work.resolve("repository"));
        for (String chart : repositoryCharts) Files.copy(charts().resolve(chart), served.resolve(chart));
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", exchange -> {
            Path file = served.resolve(exchange.getRequestURI().getPath().substring(1)).normalize();
            byte[] body = file.startsWith(served) && Files.isRegularFile(file) ? Files.readAllBytes(file) : null;
            exchange.sendResponseHeaders(body == null ? 404 : 200, body == null ? -1 : body.length);
            if (body != null) exchange.getResponseBody().write(body);
            exchange.close();
        });
        server.start();
        Path binary = RenderTools.fromEnvironment().helm().resolveSibling("registry");
        if (!Files.isExecutable(binary)) throw new IllegalStateException(binary + " is missing: run scripts/render-tools.sh");
        Process registry = new ProcessBuilder(binary.toString(), "-port", "0").redirectErrorStream(true).start();
        // The registry says its port once it listens: reading that line is waiting for it to be ready.
        BufferedReader out = new BufferedReader(new InputStreamReader(registry.getInputStream(), StandardCharsets.UTF_8));
        String port = null;
        for (String line = out.readLine(); line != null && port == null; line = port == null ? out.readLine() : null) {
            Matcher m = SERVING.matcher(line);
            if (m.find()) port = m.group(1);
        }
        if (port == null) {
            server.stop(0);
            throw new IllegalStateException("the registry ended without listening");
        }
        Thread drain = new Thread(() -> out.lines().forEach(l -> { }), "registry-log");
        drain.setDaemon(true);
        drain.start();
        ChartServers servers = new ChartServers(work, server, registry, Integer.parseInt(port));
        servers.helm("repo", "index", served.toString(), "--url", servers.repositoryUrl());
        return servers;
    }

    /** The chart repository's URL: {@code http://127.0.0.1:<port>}. */
    String repositoryUrl() { return "http://127.0.0.1:" + repository.getAddress().getPort(); }

    /** The registry's address over plain HTTP: {@code http://127.0.0.1:<port>}. */
    String registryUrl() { return "http://127.0.0.1:" + registryPort; }

    /** Pushes a packaged chart to {@code oci://<registry>/<path>} with the pinned {@code helm push}. */
    void push(String chart, String path) throws Exception {
        helm("push", charts().resolve(chart).toString(), "oci://127.0.0.1:" + registryPort + "/" + path, "--plain-http");
    }

    /** The pinned helm, with a home of its own. */
    private void helm(String... args) throws Exception {
        List<String> command = new java.util.ArrayList<>(List.of(RenderTools.fromEnvironment().helm().toString()));
        command.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
        Path home = Files.createDirectories(work.resolve("helm-home"));
        pb.environment().put("HOME", home.toString());
        pb.environment().put("HELM_CACHE_HOME", home.resolve("cache").toString());
        pb.environment().put("HELM_CONFIG_HOME", home.resolve("config").toString());
        pb.environment().put("HELM_DATA_HOME", home.resolve("data").toString());
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (p.waitFor() != 0) throw new IOException(String.join(" ", command) + " failed: " + out);
    }

    @Override public void close() {
        repository.stop(0);
        registry.destroyForcibly();
    }
}
