package dev.windlass.bench;

import static dev.windlass.bench.Figures.Unit.COUNT;

import com.sun.net.httpserver.HttpServer;
import dev.windlass.applier.cluster.ClientSettings;
import dev.windlass.engine.alerts.AddressGuard;
import dev.windlass.engine.alerts.AlertDelivery;
import dev.windlass.engine.alerts.AlertSecrets;
import dev.windlass.engine.alerts.DeliverySettings;
import dev.windlass.engine.alerts.Messages;
import dev.windlass.engine.alerts.ProviderEndpoints;
import dev.windlass.engine.alerts.Sender;
import dev.windlass.engine.demo.EncryptedSecret;
import dev.windlass.engine.demo.SignedCommits;
import dev.windlass.engine.reconcile.CommitGate;
import dev.windlass.engine.reconcile.PassReport;
import dev.windlass.engine.reconcile.Reconciler;
import dev.windlass.engine.render.AppDecryption;
import dev.windlass.git.GitRemote;
import dev.windlass.git.Mirror;
import dev.windlass.git.RetryPolicy;
import dev.windlass.git.StatusWriter;
import dev.windlass.git.TrustedKeys;
import dev.windlass.policy.model.VerifySettings;
import dev.windlass.render.RenderTools;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * {@code --scenario trust}: what SOPS decryption, commit verification and alerts cost a pass, and above all that a pass
 * with nothing new costs none of them. Every app's Secret is encrypted by the real {@code sops} for an age key made by
 * the real {@code age-keygen}; every commit the engine applies is signed with an SSH key made by {@code ssh-keygen} and
 * checked under {@code --verify-commits Tip}; an Alert sends drift corrections and failures to a webhook on this machine.
 * Counted per pass: sops runs, signature checks, alerts sent, status commits, API writes, Git round trips.
 */
final class TrustCosts {
    static final String MAIN = "main";
    private static final String STATUS = "windlass/status";
    private static final String NOOP = "no-op pass (nothing new in Git or on the clusters)";

    private final FleetShape shape;
    private final PrintStream log;
    private final Figures figures = new Figures();

    TrustCosts(FleetShape shape, PrintStream log) {
        this.shape = shape;
        this.log = log;
    }

    /** Why the scenario cannot run here (a tool is missing), or null. */
    static String unavailable(RenderTools tools) {
        String missing = EncryptedSecret.unavailable(tools);
        return missing != null ? missing : SignedCommits.unavailable();
    }

    Figures figures() { return figures; }

    void run(Clusters clusters, Path dir) throws Exception {
        RenderTools tools = RenderTools.fromEnvironment();
        EncryptedSecret sops = EncryptedSecret.make(dir.resolve("keys"), tools);
        SyntheticRepo repo = new SyntheticRepo(shape, clusters::connectionYaml);
        Map<String, byte[]> files = new TreeMap<>(repo.files());
        long e0 = System.nanoTime();
        for (int a = 0; a < shape.apps(); a++) files.put(secretPath(a), sops.encrypt(secret(a, 0)).getBytes(StandardCharsets.UTF_8));
        log.printf("  %d Secrets encrypted by sops in %.1f s (the team's side, not the engine's)%n", shape.apps(), (System.nanoTime() - e0) / 1e9);
        String alertKey = java.util.UUID.randomUUID().toString();
        Path alertSecrets = Files.createDirectories(dir.resolve("alert-secrets/bench-team"));
        Files.writeString(alertSecrets.resolve("hmacKey"), alertKey);

        AtomicLong received = new AtomicLong();
        HttpServer receiver = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        receiver.createContext("/", x -> {
            x.getRequestBody().readAllBytes();
            received.incrementAndGet();
            x.sendResponseHeaders(204, -1);
            x.close();
        });
        receiver.start();
        try (Origin origin = Origin.create(dir.resolve("origin.git"));
             BenchFleet fleet = new BenchFleet(clusters, ClientSettings.DEFAULT)) {
            origin.commit(MAIN, null, files, "Synthetic fleet, Secrets encrypted: " + shape);
            SignedCommits team = SignedCommits.make(dir.resolve("signing"), "platform@example.com", origin.dir());
            team.writeAndPush(Map.of("alerts/bench.yaml", alerts("http://127.0.0.1:" + receiver.getAddress().getPort() + "/hook")),
                    "Alerts to the team's webhook (signed)");

            Mirror mirror = Mirror.open(dir.resolve("engine"), GitRemote.anonymous(origin.dir().toString()));
            Reconciler reconciler = new Reconciler(mirror, MAIN, new StatusWriter(mirror, STATUS, RetryPolicy.DEFAULT), fleet, Clock.systemUTC());
            reconciler.useDecryptionKeys(AppDecryption.keysFrom(sops.keys()));
            CommitGate gate = new CommitGate(mirror, MAIN, TrustedKeys.load(team.trusted()), VerifySettings.Mode.Tip);
            reconciler.verifyWith(gate);
            AddressGuard guard = AddressGuard.system(true);
            try (AlertDelivery alerts = new AlertDelivery(new Sender(DeliverySettings.DEFAULT.timeout(), new Messages(null), guard),
                    DeliverySettings.DEFAULT, Clock.systemUTC())) {
                reconciler.alertWith(new ProviderEndpoints(new AlertSecrets(dir.resolve("alert-secrets")), guard), alerts);
                Counter counter = new Counter(reconciler, gate, clusters, mirror, received);

                Counter.Snapshot s = counter.now();
                PassReport first = reconciler.reconcile();
                counter.record("first sync: clone + first pass, every Secret decrypted", s, System.nanoTime(), commits(first));
                settle(reconciler);

                for (int i = 0; i < 3; i++) {
                    s = counter.now();
                    PassReport noop = reconciler.reconcile();
                    long done = System.nanoTime();
                    BenchRun.sleep(1000);  // an alert would be sent within it
                    counter.record(NOOP, s, done, commits(noop));
                }

                for (int generation = 1; generation <= 3; generation++) {
                    int app = (shape.apps() / 2 + generation) % shape.apps();
                    team.writeAndPush(Map.of(secretPath(app), sops.encrypt(secret(app, generation))), "Rotate one app's password (signed)");
                    s = counter.now();
                    PassReport rotated = reconciler.reconcile();
                    counter.record("one encrypted Secret changed, signed push", s, System.nanoTime(), commits(rotated));
                }

                String before = mirror.resolve(MAIN).orElseThrow();
                for (int i = 0; i < 3; i++) {
                    team.writeUnsignedAndPush(Map.of("apps/" + SyntheticRepo.app(i) + "/manifests/configmap.yaml",
                            new String(repo.edited(i, 100 + i), StandardCharsets.UTF_8)), "An unsigned push");
                    s = counter.now();
                    PassReport refused = passOrRefusal(reconciler);
                    // A refusal is recorded (status/verification.yaml) in a commit of its own.
                    counter.record("unsigned push: refused, nothing applied", s, System.nanoTime(), refused == null ? 1 : commits(refused));
                }
                log.printf("  after the unsigned pushes the engine applies %s, verified before them: %s%n",
                        reconciler.verification() == null ? "?" : reconciler.verification().applying().substring(0, 7),
                        reconciler.verification() != null && reconciler.verification().applying().equals(before));

                team.writeAndPush(Map.of("apps/" + SyntheticRepo.app(0) + "/manifests/configmap.yaml",
                        new String(repo.edited(0, 200), StandardCharsets.UTF_8)), "Signed again");
                settle(reconciler);
                for (int i = 0; i < 3; i++) {
                    String app = SyntheticRepo.app(i);
                    try (KubernetesClient c = new KubernetesClientBuilder().withConfig(clusters.config(clusters.names().get(0))).build()) {
                        c.secrets().inNamespace(app).withName(app + "-credentials").edit(x -> {
                            x.getMetadata().getAnnotations().put(AppDecryption.MARKER_ANNOTATION, "edited-by-hand");
                            return x;
                        });
                    }
                    s = counter.now();
                    // The pass sets the drift back and tells it (DriftCorrected); the next records that the alert was delivered.
                    PassReport corrected = reconciler.reconcile();
                    PassReport confirmed = reconciler.reconcile();
                    long done = System.nanoTime();
                    for (int w = 0; w < 50 && received.get() == s.received(); w++) BenchRun.sleep(100);
                    counter.record("a Secret edited on a cluster: set back and told (that pass and the next, which records the delivery)", s, done,
                            commits(corrected) + commits(confirmed));
                }
            }
            mirror.close();
        } finally {
            receiver.stop(0);
        }
    }

    private static PassReport passOrRefusal(Reconciler reconciler) throws IOException {
        try {
            return reconciler.reconcile();
        } catch (dev.windlass.engine.reconcile.NothingVerified refused) {
            return null;
        }
    }

    private static boolean quiet(PassReport r) { return !r.committed() && !r.plan().hasChanges(); }

    /** Passes 1 s apart until two in a row have nothing to change or record (the sandbox moves workloads every second). */
    private static void settle(Reconciler reconciler) throws IOException {
        for (int i = 0, quiet = 0; i < 120 && quiet < 2; i++) {
            quiet = quiet(reconciler.reconcile()) ? quiet + 1 : 0;
            if (quiet < 2) BenchRun.sleep(1000);
        }
    }

    private static int commits(PassReport r) { return r.committed() ? 1 : 0; }

    /** What the engine and the clusters have done so far, to count one pass's share. */
    private final class Counter {
        record Snapshot(long nanos, long sops, long checks, long received, long writes, long trips, int deliveries) {}

        private final Reconciler reconciler;
        private final CommitGate gate;
        private final Clusters clusters;
        private final Mirror mirror;
        private final AtomicLong received;

        Counter(Reconciler reconciler, CommitGate gate, Clusters clusters, Mirror mirror, AtomicLong received) {
            this.reconciler = reconciler;
            this.gate = gate;
            this.clusters = clusters;
            this.mirror = mirror;
            this.received = received;
        }

        Snapshot now() {
            return new Snapshot(System.nanoTime(), reconciler.decryptions(), gate.checks(), received.get(), clusters.counts().writes(),
                    mirror.roundTrips(), reconciler.deliveries().size());
        }

        /** @param done when the passes ended (what follows, waiting for an alert to be sent, is not their time) */
        void record(String name, Snapshot s, long done, int commits) {
            figures.addNanos(name, done - s.nanos());
            figures.add("  sops runs (decryptions not cached)", COUNT, reconciler.decryptions() - s.sops());
            figures.add("  commits whose signature was checked", COUNT, gate.checks() - s.checks());
            figures.add("  alerts sent to the webhook", COUNT, received.get() - s.received());
            figures.add("  API writes", COUNT, clusters.counts().writes() - s.writes());
            figures.add("  Git round trips", COUNT, mirror.roundTrips() - s.trips());
            figures.add("  status commits", COUNT, commits);
        }
    }

    static String secretPath(int app) { return "apps/" + SyntheticRepo.app(app) + "/manifests/secret.yaml"; }

    /** The app's Secret in plain text, as the team writes it before encrypting; its password changes with {@code generation}. */
    private static String secret(int app, int generation) {
        String name = SyntheticRepo.app(app);
        return SyntheticRepo.secret(name, java.util.UUID.nameUUIDFromBytes((name + "/" + generation).getBytes(StandardCharsets.UTF_8)).toString());
    }

    private static String alerts(String address) {
        return """
                apiVersion: windlass.dev/v1alpha1
                kind: Provider
                metadata: {name: bench-team}
                spec:
                  type: webhook
                  address: "%s"
                  secretRef: {name: bench-team}
                ---
                apiVersion: windlass.dev/v1alpha1
                kind: Alert
                metadata: {name: bench-drift-and-failures}
                spec:
                  providerRef: {name: bench-team}
                  eventKinds: [DriftCorrected, ApplyFailed, ApplicationInvalid, ClusterUnreachable]
                """.formatted(address);
    }
}
