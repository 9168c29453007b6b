package dev.windlass.sandbox;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.HashMap;
import java.util.Objects;
import java.util.logging.Level;

/**
 * One simulated cluster: fabric8's mock API server in CRUD mode on loopback, an ephemeral port, plain HTTP. Clients
 * reach it through a front door that can play dead ({@link #down(boolean)}) or hung ({@link #hang(boolean)}); responses can be slowed down
 * ({@link #latency(Duration)}); its API server can report itself not ready ({@link #apiNotReady(boolean)}); every
 * request that arrives is counted in {@link #requests()}.
 */
public final class SandboxCluster implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(SandboxCluster.class);

    // The mock web server logs every request at INFO through java.util.logging. JUL keeps loggers weakly, so the
    // quieted logger is held here or it would be collected and the level lost.
    private static final java.util.logging.Logger MOCK_SERVER_LOG = quiet("io.fabric8.mockwebserver.MockWebServer");

    private static final InetAddress LOOPBACK = loopback();

    private final String name;
    private final ClusterSettings settings;
    private final RequestLog requests = new RequestLog();
    private final ApiDispatcher dispatcher;
    private final LocalApi local;
    private final KubernetesMockServer server;
    private final FrontDoor door;
    private final Config config;

    private SandboxCluster(String name, ClusterSettings settings) {
        this.name = name;
        this.settings = settings;
        ResourceStores store = new ResourceStores();
        this.dispatcher = new ApiDispatcher(store, requests);
        this.local = new LocalApi(store);
        // Passing our dispatcher here is what makes the server CRUD-backed; the boolean is "use HTTPS".
        this.server = new KubernetesMockServer(new Context(), new MockWebServer(), new HashMap<>(), dispatcher, false);
        server.start(LOOPBACK, 0);
        try {
            this.door = new FrontDoor(name, LOOPBACK, server.getPort());
        } catch (IOException e) {
            server.shutdown();
            throw new UncheckedIOException("cannot open the front door of sandbox cluster " + name, e);
        }
        this.config = settings.config(masterUrl());
        log.debug("sandbox cluster {} listening on {} (API server on port {})", name, masterUrl(), server.getPort());
    }

    public static SandboxCluster start(String name) {
        return start(name, ClusterSettings.defaults());
    }

    public static SandboxCluster start(String name, ClusterSettings settings) {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(settings, "settings");
        return new SandboxCluster(name, settings);
    }

    public String name() {
        return name;
    }

    public String masterUrl() {
        return "http://" + LOOPBACK.getHostAddress() + ":" + door.port() + "/";
    }

    /** Client settings for this cluster, as {@link ClusterSettings#config(String)} describes; a fresh copy. */
    public Config config() {
        return new ConfigBuilder(config).build();
    }

    public KubernetesClient newClient() {
        return new KubernetesClientBuilder().withConfig(config()).build();
    }

    public ClusterSettings settings() {
        return settings;
    }

    public RequestLog requests() {
        return requests;
    }

    /** The store as the cluster's own components reach it: in-process, not counted, not delayed. */
    public LocalApi local() {
        return local;
    }

    /** While down, connections are reset as by a host that went away; the stored objects are kept. */
    public void down(boolean down) {
        door.down(down);
        log.debug("sandbox cluster {} is {}", name, down ? "down" : "up");
    }

    public boolean isDown() {
        return door.isDown();
    }

    /**
     * While hung, the cluster looks like an API server whose process is stopped: connections are accepted, and no
     * request, open or new, is ever answered (watches included), until it is thawed ({@code false}); then what was
     * sent meanwhile is served. The stored objects are kept.
     */
    public void hang(boolean hung) {
        door.hang(hung);
        log.debug("sandbox cluster {} is {}", name, hung ? "hung" : "answering again");
    }

    public boolean isHung() {
        return door.isHung();
    }

    /** Holds every response back this long (zero to stop); watch streams are not delayed. */
    public void latency(Duration latency) {
        dispatcher.latency(latency);
    }

    public Duration latency() {
        return dispatcher.latency();
    }

    /**
     * While set, {@code GET /readyz} answers 500 with the failed checks listed, as a real API server whose storage
     * is in trouble does; every other request is still served, so the cluster stays reachable.
     */
    public void apiNotReady(boolean notReady) {
        dispatcher.notReady(notReady);
        log.debug("sandbox cluster {}: API server is {}", name, notReady ? "not ready" : "ready");
    }

    public boolean isApiNotReady() {
        return dispatcher.notReady();
    }

    @Override public void close() {
        door.close();
        server.shutdown();
        log.debug("sandbox cluster {} stopped", name);
    }

    @Override public String toString() {
        return "SandboxCluster[" + name + " " + masterUrl() + (isDown() ? " down" : "") + (isHung() ? " hung" : "")
                + (isApiNotReady() ? " not-ready" : "") + "]";
    }

    private static java.util.logging.Logger quiet(String name) {
        java.util.logging.Logger logger = java.util.logging.Logger.getLogger(name);
        logger.setLevel(Level.WARNING);
        return logger;
    }

    private static InetAddress loopback() {
        try {
            return InetAddress.getByAddress("localhost", new byte[] {127, 0, 0, 1});
        } catch (UnknownHostException e) {
            throw new IllegalStateException(e);
        }
    }
}
