package dev.windlass.kubetest;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.function.BooleanSupplier;
import java.util.stream.Stream;

/** The etcd and kube-apiserver processes of one {@link KubeApiServer}, with the files they use. */
final class Servers {

    private static final Duration ETCD_READY = Duration.ofSeconds(30);
    private static final Duration API_READY = Duration.ofSeconds(90);

    private final Path work;
    private final int etcdPort;
    private final int apiPort;
    private final String token;
    private final ChildProcess etcd;
    /** Whether the API server calls admission webhooks (see {@link KubeCluster#startWithoutWebhookAdmission}). */
    private final boolean webhooks;
    private ChildProcess apiServer;

    private Servers(Path work, int etcdPort, int apiPort, String token, ChildProcess etcd, boolean webhooks) {
        this.webhooks = webhooks;
        this.work = work;
        this.etcdPort = etcdPort;
        this.apiPort = apiPort;
        this.token = token;
        this.etcd = etcd;
    }

    /** Starts etcd; the API server follows in {@link #awaitReady()}, once etcd answers. */
    static Servers start(Binaries binaries, boolean webhooks) {
        try {
            Path work = Files.createTempDirectory("windlass-kube-");
            int etcdPort = freePort(), peerPort = freePort(), apiPort = freePort();
            String token = HexFormat.of().formatHex(new SecureRandom().generateSeed(16));
            String etcdUrl = "http://127.0.0.1:" + etcdPort, peerUrl = "http://127.0.0.1:" + peerPort;
            ChildProcess etcd = ChildProcess.start("etcd", List.of(binaries.etcd().toString(),
                    "--name=default", "--data-dir=" + work.resolve("etcd"),
                    "--listen-client-urls=" + etcdUrl, "--advertise-client-urls=" + etcdUrl,
                    "--listen-peer-urls=" + peerUrl, "--initial-advertise-peer-urls=" + peerUrl,
                    "--initial-cluster=default=" + peerUrl,
                    // Throwaway data: fsync would only make every write in the tests slower.
                    "--unsafe-no-fsync", "--quota-backend-bytes=268435456", "--log-level=warn"),
                    work.resolve("etcd.log"));
            Servers servers = new Servers(work, etcdPort, apiPort, token, etcd, webhooks);
            try {
                servers.startApiServer(binaries);
            } catch (IOException | RuntimeException e) {
                servers.stop();
                throw e;
            }
            return servers;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start etcd and kube-apiserver", e);
        }
    }

    private Binaries binaries;
    private ServiceAccountKeys keys;
    private Path tokens;
    private Path auditPolicy;
    private final java.util.Map<String, String> userTokens = new java.util.TreeMap<>();

    /**
     * Users besides the admin, each with a token of its own and in {@code system:masters}: a test that runs several
     * processes gives each its own user, and the audit log ({@link #auditLog()}) says which of them wrote what.
     */
    static final List<String> USERS = List.of("user-1", "user-2", "user-3", "user-4");

    private void startApiServer(Binaries binaries) throws IOException {
        this.binaries = binaries;
        this.keys = ServiceAccountKeys.writeTo(work);
        StringBuilder csv = new StringBuilder(token + ",admin,admin,system:masters\n");
        for (String user : USERS) {
            String t = HexFormat.of().formatHex(new SecureRandom().generateSeed(16));
            userTokens.put(user, t);
            csv.append(t).append(',').append(user).append(',').append(user).append(",system:masters\n");
        }
        this.tokens = Files.writeString(work.resolve("tokens.csv"), csv.toString());
        // Only the extra users' writes are audited: the admin's (tests, the shared control planes' own checks) and the
        // controllers' are not, so the log costs nothing to tests that do not use it.
        String users = String.join(", ", USERS);
        this.auditPolicy = Files.writeString(work.resolve("audit-policy.yaml"), """
                apiVersion: audit.k8s.io/v1
                kind: Policy
                omitStages: [RequestReceived]
                rules:
                - level: Request
                  users: [%s]
                  verbs: [create, update, patch, delete, deletecollection]
                  resources: [{group: "", resources: [configmaps, secrets, namespaces]}]
                - level: Metadata
                  users: [%s]
                  verbs: [create, update, patch, delete, deletecollection]
                - level: None
                """.formatted(users, users));
        startApiServer(keys, tokens);
    }

    /** The token of one of {@link #USERS}. */
    String token(String user) {
        String t = userTokens.get(user);
        if (t == null) throw new IllegalArgumentException("no user " + user + "; the users are " + USERS);
        return t;
    }

    /** The audit log: one JSON event a line, for the writes of {@link #USERS} only. */
    Path auditLog() { return work.resolve("audit.log"); }

    /** Stops the API server process; etcd and every file stay. Connections are refused until {@link #startAgain()}. */
    synchronized void stopApiServer() {
        apiServer.stop();
    }

    /** Starts the API server again on the same port, with the same certificates, keys and etcd; waits until ready. */
    synchronized void startAgain() throws IOException {
        if (apiServer.alive()) return;
        startApiServer(keys, tokens);
        awaitReady();
    }

    private void startApiServer(ServiceAccountKeys keys, Path tokens) throws IOException {
        await("etcd on port " + etcdPort, ETCD_READY, etcd, () -> {
            var health = ApiProbe.plain().get("http://127.0.0.1:" + etcdPort + "/health");
            return health != null && health.body().contains("\"health\":\"true\"");
        });
        apiServer = ChildProcess.start("kube-apiserver", List.of(binaries.apiServer().toString(),
                "--etcd-servers=http://127.0.0.1:" + etcdPort,
                "--bind-address=127.0.0.1", "--secure-port=" + apiPort,
                "--cert-dir=" + work.resolve("certs"),
                "--service-account-issuer=https://kubernetes.default.svc",
                "--service-account-key-file=" + keys.publicKey(),
                "--service-account-signing-key-file=" + keys.privateKey(),
                "--token-auth-file=" + tokens,
                "--audit-policy-file=" + auditPolicy, "--audit-log-path=" + auditLog(), "--audit-log-mode=blocking",
                "--authorization-mode=RBAC",
                // Room for 65,000 ClusterIP Services: a /24 fills at 254, which a fleet-sized benchmark passes.
                "--service-cluster-ip-range=10.0.0.0/16",
                // No controller-manager runs, so no default ServiceAccount would ever exist for Pods to use. Without
                // webhooks, the API server calls no admission webhook: kwok runs no Pod, so none could answer.
                "--disable-admission-plugins=ServiceAccount" + (webhooks ? "" : ",ValidatingAdmissionWebhook,MutatingAdmissionWebhook")),
                work.resolve("kube-apiserver.log"));
    }

    /** Waits for /readyz and for the {@code default} namespace, which a bootstrap controller creates just after. */
    ApiProbe awaitReady() throws IOException {
        Path cert = servingCert();
        await("the serving certificate " + cert, API_READY, apiServer, () -> Files.isReadable(cert));
        // The certificate is read again on every attempt: the server may still be writing it when it first
        // becomes readable, and a probe that trusted half a certificate would never trust the server.
        ApiProbe[] probe = new ApiProbe[1];
        await(() -> "kube-apiserver /readyz at " + url() + readyzDetail(probe[0]), API_READY, apiServer, () -> {
            try {
                probe[0] = ApiProbe.trusting(cert, token);
                return probe[0].ok(url() + "/readyz");
            } catch (IOException | RuntimeException e) {
                return false;
            }
        });
        await("namespace default", API_READY, apiServer, () -> probe[0].ok(url() + "/api/v1/namespaces/default"));
        return probe[0];
    }

    String url() { return "https://127.0.0.1:" + apiPort; }

    /** The API server process, to stop and continue it. */
    ChildProcess apiServer() { return apiServer; }

    String token() { return token; }

    Path servingCert() { return work.resolve("certs").resolve("apiserver.crt"); }

    /** Idempotent; also run from a shutdown hook. */
    synchronized void stop() {
        if (apiServer != null) apiServer.stop();
        etcd.stop();
        try (Stream<Path> files = Files.walk(work)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            // Already gone, or a temp file we cannot remove: nothing a test could do about it.
        }
    }

    /** The checks /readyz says are failing, to explain a timeout (empty when the server does not answer). */
    private String readyzDetail(ApiProbe probe) {
        if (probe == null) return " (no probe: the serving certificate could not be read)";
        var response = probe.get(url() + "/readyz?verbose");
        if (response == null) return " (no answer)";
        return " (HTTP " + response.statusCode() + "; failing: " + String.join(", ", response.body().lines().filter(l -> l.startsWith("[-]")).toList()) + ")";
    }

    private static void await(String what, Duration limit, ChildProcess process, BooleanSupplier ready) {
        await(() -> what, limit, process, ready);
    }

    private static void await(java.util.function.Supplier<String> what, Duration limit, ChildProcess process, BooleanSupplier ready) {
        long deadline = System.nanoTime() + limit.toNanos();
        while (!ready.getAsBoolean()) {
            process.requireAlive();
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("timed out after " + limit.toSeconds() + "s waiting for " + what.get()
                        + "; last log lines:\n" + process.tail(30));
            }
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for " + what.get(), e);
            }
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }
}
