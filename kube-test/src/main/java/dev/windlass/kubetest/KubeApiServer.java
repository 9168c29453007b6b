package dev.windlass.kubetest;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A real kube-apiserver with its own etcd, both on 127.0.0.1, in a temp directory deleted on {@link #close()}.
 * Clients authenticate with a static token whose user is in {@code system:masters}; authorization is RBAC,
 * so a test can impersonate a less privileged user. Starting takes about 4 s: share one per test class.
 */
public final class KubeApiServer implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(KubeApiServer.class);

    private final Servers servers;
    private final ApiProbe probe;
    private final Thread onJvmExit;
    private boolean closed;

    private KubeApiServer(Servers servers, ApiProbe probe) {
        this.servers = servers;
        this.probe = probe;
        // Left running, the servers would outlive a test JVM that exits without closing them.
        this.onJvmExit = new Thread(servers::stop, "kube-test-shutdown");
        Runtime.getRuntime().addShutdownHook(onJvmExit);
    }

    /** Starts from the binaries in {@code $WINDLASS_K8S_DIR} (default {@value Binaries#DEFAULT_DIR}). */
    public static KubeApiServer start() { return start(Binaries.fromEnvironment()); }

    /** Starts and waits until the API server is ready and has its {@code default} namespace. */
    public static KubeApiServer start(Binaries binaries) { return start(binaries, true); }

    /**
     * Starts and waits until the API server is ready; with {@code webhooks} false it calls no admission webhook
     * ({@code ValidatingAdmissionWebhook} and {@code MutatingAdmissionWebhook} disabled).
     */
    public static KubeApiServer start(Binaries binaries, boolean webhooks) {
        binaries.requirePresent();
        try {
            return startOnce(binaries, webhooks);
        } catch (IllegalStateException e) {
            // Free ports are picked before the servers bind them; another process may have taken one in between.
            if (!String.valueOf(e.getMessage()).contains("address already in use")) throw e;
            log.warn("a port was taken while starting; starting again on other ports");
            return startOnce(binaries, webhooks);
        }
    }

    private static KubeApiServer startOnce(Binaries binaries, boolean webhooks) {
        long started = System.nanoTime();
        Servers servers = Servers.start(binaries, webhooks);
        try {
            ApiProbe probe = servers.awaitReady();
            KubeApiServer server = new KubeApiServer(servers, probe);
            log.info("kube-apiserver ready at {} after {} ms", servers.url(), (System.nanoTime() - started) / 1_000_000);
            return server;
        } catch (RuntimeException | IOException e) {
            servers.stop();
            if (e instanceof IOException io) throw new UncheckedIOException(io);
            throw (RuntimeException) e;
        }
    }

    /** {@code https://127.0.0.1:<port>}. */
    public String url() { return servers.url(); }

    /** A client configuration as the admin user; TLS is not verified (the certificate is throwaway). */
    public Config config() {
        return new ConfigBuilder(Config.empty())
                .withMasterUrl(servers.url())
                .withOauthToken(servers.token())
                .withTrustCerts(true)
                .withNamespace("default")
                .build();
    }

    /** A new client as the admin user; the caller closes it. */
    public KubernetesClient newClient() { return new KubernetesClientBuilder().withConfig(config()).build(); }

    /** Writes a kubeconfig for the admin user that trusts the server's own certificate; returns {@code file}. */
    public Path kubeconfig(Path file) {
        return kubeconfig(file, "admin");
    }

    /** The users besides the admin ({@code user-1} to {@code user-4}), each allowed everything, whose writes are audited. */
    public static List<String> users() { return Servers.USERS; }

    /**
     * Writes a kubeconfig for {@code user} (the admin, or one of {@link #users()}) that trusts the server's own
     * certificate; returns {@code file}.
     */
    public Path kubeconfig(Path file, String user) {
        String token = user.equals("admin") ? servers.token() : servers.token(user);
        try {
            String ca = Base64.getEncoder().encodeToString(Files.readAllBytes(servers.servingCert()));
            Files.writeString(file, """
                    apiVersion: v1
                    kind: Config
                    clusters:
                    - name: kube-test
                      cluster: {server: "%s", certificate-authority-data: "%s"}
                    users:
                    - name: %s
                      user: {token: "%s"}
                    contexts:
                    - name: kube-test
                      context: {cluster: kube-test, user: %s, namespace: default}
                    current-context: kube-test
                    """.formatted(servers.url(), ca, user, token, user), StandardCharsets.UTF_8);
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The writes of {@link #users()} that the server audited, oldest first, as it logged them before answering: which
     * user created, updated, patched or deleted which object, with the request's body for ConfigMaps, Secrets and
     * Namespaces.
     */
    public List<AuditedWrite> auditedWrites() {
        return AuditedWrite.read(servers.auditLog());
    }

    /** The server's request counters now; take two and use {@link RequestCounts#since} for what happened between. */
    public RequestCounts requestCounts() {
        HttpResponse<String> metrics = probe.get(servers.url() + "/metrics");
        if (metrics == null || metrics.statusCode() != 200) {
            throw new IllegalStateException("cannot read " + servers.url() + "/metrics: "
                    + (metrics == null ? "no answer" : "HTTP " + metrics.statusCode()));
        }
        return RequestCounts.parse(metrics.body());
    }

    /**
     * Stops the API server process ({@code SIGSTOP}): its port still accepts connections, but no request is ever
     * answered, which is how a hung cluster looks to a client. {@link #thaw()} continues it; {@link #close()} works
     * on a frozen server too.
     */
    public void freeze() { servers.apiServer().signal("STOP"); }

    /** Continues a server {@link #freeze() frozen} before. */
    public void thaw() { servers.apiServer().signal("CONT"); }

    /**
     * {@code true}: stops the API server process, so every connection is refused, as when a cluster's control plane is
     * down; etcd keeps the data. {@code false}: starts it again on the same port with the same etcd, and returns once it
     * is ready.
     */
    public void down(boolean down) {
        if (down) {
            servers.stopApiServer();
            return;
        }
        try {
            servers.startAgain();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Stops the API server, then etcd, and deletes their files. */
    @Override public synchronized void close() {
        if (closed) return;
        closed = true;
        try {
            Runtime.getRuntime().removeShutdownHook(onJvmExit);
        } catch (IllegalStateException e) {
            // The JVM is shutting down and the hook is running or about to; stopping twice is harmless.
        }
        servers.stop();
    }
}
