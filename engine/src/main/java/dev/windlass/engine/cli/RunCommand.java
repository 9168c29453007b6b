package dev.windlass.engine.cli;

import dev.windlass.applier.cluster.ManagementCluster;
import dev.windlass.engine.reconcile.Engine;
import dev.windlass.engine.lease.Leadership;
import dev.windlass.engine.schedule.Daemon;
import dev.windlass.policy.fence.WriteFence;
import io.fabric8.kubernetes.client.KubernetesClient;
import dev.windlass.policy.parse.Durations;
import dev.windlass.engine.reconcile.SandboxSupply;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import dev.windlass.git.Mirror;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import dev.windlass.engine.lease.ShardLeases;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

@Command(name = "run", description = "Run the engine: poll the config branch, reconcile, record status. Serves /healthz, /readyz, /metrics, "
        + "/webhook and the read-only dashboard (/).")
final class RunCommand implements Callable<Integer> {
    private static final Logger log = LoggerFactory.getLogger(RunCommand.class);

    @Mixin RepoOptions repo;

    @Mixin LeaderOptions leader;

    @Option(names = "--branch", defaultValue = "main", description = "config branch (default: ${DEFAULT-VALUE})")
    String branch;

    @Option(names = "--interval", description = "poll interval, e.g. 30s, 5m (default: the repo's Settings spec.interval, else 30s)")
    String interval;

    @Option(names = "--kubeconfig-dir", paramLabel = "DIR",
            description = "the only directory Cluster kubeconfig paths may point into (default: the working directory)")
    Path kubeconfigDir;

    @Option(names = "--namespace", paramLabel = "NS",
            description = "the engine's namespace in the cluster it runs in (or the one --management-kubeconfig reaches): the only one "
                    + "whose Secrets it reads, for Clusters with kubeconfigSecretRef (default: the Pod's own, else "
                    + ManagementCluster.DEFAULT_NAMESPACE + ")")
    String namespace;

    /** As given, else the Pod's own namespace, else the default. */
    /** The data of Secret {@code name} in the engine's namespace, read once; an error names it, never its values. */
    private static java.util.Map<String, byte[]> secretData(ManagementCluster management, String name) throws java.io.IOException {
        if (management.unavailable() != null) {
            throw new java.io.IOException("--trusted-keys-secret " + name + ": no management cluster to read it from: " + management.unavailable());
        }
        try (KubernetesClient client = new io.fabric8.kubernetes.client.KubernetesClientBuilder().withConfig(management.config()).build()) {
            io.fabric8.kubernetes.api.model.Secret secret = client.secrets().inNamespace(management.namespace()).withName(name).get();
            if (secret == null) throw new java.io.IOException("--trusted-keys-secret: there is no Secret " + management.namespace() + "/" + name);
            java.util.Map<String, byte[]> data = new java.util.TreeMap<>();
            if (secret.getData() != null) secret.getData().forEach((k, v) -> data.put(k, java.util.Base64.getDecoder().decode(v)));
            if (secret.getStringData() != null) secret.getStringData().forEach((k, v) -> data.put(k, v.getBytes(java.nio.charset.StandardCharsets.UTF_8)));
            return data;
        } catch (io.fabric8.kubernetes.client.KubernetesClientException e) {
            throw new java.io.IOException("--trusted-keys-secret: cannot read Secret " + management.namespace() + "/" + name + " (HTTP " + e.getCode() + ")");
        }
    }

    private String namespace() throws java.io.IOException {
        if (namespace != null) return namespace;
        return Files.isReadable(LeaderOptions.POD_NAMESPACE) ? Files.readString(LeaderOptions.POD_NAMESPACE).trim()
                : ManagementCluster.DEFAULT_NAMESPACE;
    }

    @Option(names = "--listen", defaultValue = "127.0.0.1:8080",
            description = "HTTP address for /healthz, /readyz, /metrics, /webhook and the dashboard; loopback unless told otherwise "
                    + "(default: ${DEFAULT-VALUE})")
    String listen;

    @Option(names = "--webhook-secret-file", paramLabel = "FILE", description = "HMAC secret for /webhook (or env WINDLASS_WEBHOOK_SECRET)")
    Path secretFile;

    @Option(names = "--ready-within", paramLabel = "DURATION",
            description = "/readyz answers 503 when no pass succeeded within this long (default: three poll intervals)")
    String readyWithin;

    @Option(names = "--shutdown-grace", paramLabel = "DURATION", defaultValue = "30s",
            description = "on SIGTERM, how long to wait for the pass in flight before exiting (default: ${DEFAULT-VALUE})")
    String shutdownGrace;

    @Option(names = "--in-flight", paramLabel = "N", defaultValue = "" + dev.windlass.applier.cluster.ClientSettings.IN_FLIGHT,
            description = "writes in flight at once per cluster while a plan is applied: that many applications are applied side by"
                    + " side on each cluster (default: ${DEFAULT-VALUE}; 1: one write at a time)")
    int inFlight;

    @Option(names = "--http2", negatable = true, defaultValue = "false", fallbackValue = "true",
            description = "offer HTTP/2 to API servers over TLS, one connection per cluster for all requests (default: off, HTTP/1.1)")
    boolean http2;

    @Mixin DashboardOptions dashboard;

    @Option(names = "--log-format", paramLabel = "text|json",
            description = "log lines as text or JSON objects (default: env WINDLASS_LOG_FORMAT, else text)")
    LogFormat logFormat;

    @picocli.CommandLine.Mixin RenderOptions renderOptions;

    @Option(names = "--decryption-keys", paramLabel = "DIR",
            description = "a directory of private keys SOPS-encrypted manifests are decrypted with: *.agekey (age-keygen) and *.asc"
                    + " (gpg --armor --export-secret-keys) files (default: env " + dev.windlass.engine.render.AppDecryption.KEYS_ENV
                    + ", else none: encrypted manifests are errors of their applications); see docs/secrets.md")
    Path decryptionKeys;

    @Option(names = "--trusted-keys", paramLabel = "DIR",
            description = "keys whose commit signatures are trusted: OpenPGP public keys (*.asc) and an OpenSSH allowed_signers file")
    Path trustedKeys;

    @Option(names = "--trusted-keys-secret", paramLabel = "NAME",
            description = "a Secret in the engine's namespace holding more trusted keys: *.asc and allowed_signers entries; read at start")
    String trustedKeysSecret;

    @Option(names = "--verify-commits", paramLabel = "Off|Tip|AllSince", defaultValue = "Off",
            description = "apply only commits signed by a trusted key, whatever the repo's Settings say; the repo can only tighten it"
                    + " (default: ${DEFAULT-VALUE}: only what the repo's Settings spec.verify asks)")
    dev.windlass.policy.model.VerifySettings.Mode verifyCommits;

    @Option(names = "--alerts-secrets-dir", paramLabel = "DIR",
            description = "the credentials of alert Providers: DIR/<secretRef>/address, token, hmacKey (a Secret mounted as a volume)")
    Path alertsSecretsDir;

    @Option(names = "--alerts-allow-private-addresses",
            description = "let alert Providers be loopback, link-local or private addresses (tests, demos, a receiver inside the cluster)")
    boolean alertsAllowPrivate;

    @Option(names = "--alerts-dashboard-url", paramLabel = "URL", description = "the dashboard's address as people reach it, for links in alerts")
    String alertsDashboardUrl;

    @Spec CommandSpec spec;

    @Override public Integer call() throws Exception {
        if (logFormat != null) logFormat.apply();
        if (decryptionKeys != null) System.setProperty(dev.windlass.engine.render.AppDecryption.KEYS_PROPERTY, decryptionKeys.toString());
        Path keyDir = dev.windlass.engine.render.AppDecryption.keyDirFromEnvironment();
        if (keyDir != null) {
            try {
                dev.windlass.engine.render.AppDecryption.keysFrom(keyDir);
            } catch (IllegalArgumentException e) {
                throw new CommandLine.ParameterException(spec.commandLine(), "--decryption-keys: " + e.getMessage());
            }
        }
        Duration every = duration("--interval", interval);
        Duration ready = duration("--ready-within", readyWithin);
        Duration grace = duration("--shutdown-grace", shutdownGrace);
        if (inFlight < 1) throw new CommandLine.ParameterException(spec.commandLine(), "--in-flight takes a number of at least 1");
        int colon = listen.lastIndexOf(':');
        if (colon < 0) throw new CommandLine.ParameterException(spec.commandLine(), "--listen takes host:port, e.g. 127.0.0.1:8080");
        InetSocketAddress address = new InetSocketAddress(listen.substring(0, colon), Integer.parseInt(listen.substring(colon + 1)));
        String secret = secretFile != null ? Files.readString(secretFile).trim() : System.getenv("WINDLASS_WEBHOOK_SECRET");
        if (verifyCommits != dev.windlass.policy.model.VerifySettings.Mode.Off && trustedKeys == null && trustedKeysSecret == null) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--verify-commits " + verifyCommits
                    + " needs --trusted-keys DIR or --trusted-keys-secret NAME: the keys whose signatures are trusted");
        }
        Path confined = (kubeconfigDir != null ? kubeconfigDir : Path.of("")).toAbsolutePath();
        ManagementCluster managementCluster = leader.managementKubeconfig != null
                ? ManagementCluster.fromKubeconfig(leader.managementKubeconfig, namespace()) : ManagementCluster.inCluster(namespace());
        // Read before anything else: a key file that is not a key stops the engine here, naming it.
        dev.windlass.git.TrustedKeys keys = trustedKeys == null && trustedKeysSecret == null ? null
                : TrustedKeySources.load(trustedKeys, trustedKeysSecret == null ? null : secretData(managementCluster, trustedKeysSecret),
                        managementCluster.namespace() + "/" + trustedKeysSecret, trustedKeysSecret == null ? null : TrustedKeySources.scratch());
        Mirror mirror = repo.openMirror();
        mirror.fetch();
        String statusBranch = repo.statusBranch(mirror, branch);
        KubernetesClient management = leader.managementClient();
        Leadership leadership = leader.leadership(management);
        // A replica that takes a shard reads the status its predecessor recorded, and runs a pass at once.
        AtomicReference<Runnable> taken = new AtomicReference<>(() -> {});
        ShardLeases shards = leader.shardLeases(management, shard -> taken.get().run());
        SandboxSupply sandboxes = SandboxSupply.onDemand(Clock.systemUTC());
        WriteFence fence = shards != null ? shards : leadership != null ? leadership : WriteFence.OPEN;
        Engine engine = new Engine(mirror, branch, statusBranch, sandboxes, Clock.systemUTC(), System::getenv,
                dev.windlass.applier.cluster.ClientSettings.DEFAULT.confinedTo(confined).withConcurrency(inFlight, http2), fence, managementCluster,
                leader.identity());
        // Always on: the repo's Settings may ask for signed commits even when the engine's flag does not.
        engine.verifyCommits(keys == null ? dev.windlass.git.TrustedKeys.NONE : keys, verifyCommits);
        if (keys != null) {
            org.slf4j.LoggerFactory.getLogger(RunCommand.class).info("trusted keys: {}{}; --verify-commits {}", keys.describe(),
                    trustedKeysSecret == null ? "" : " (with Secret " + managementCluster.namespace() + "/" + trustedKeysSecret + ")", verifyCommits);
        }
        engine.alertWith(new dev.windlass.engine.alerts.AlertSettings(alertsSecretsDir == null ? null : alertsSecretsDir.toAbsolutePath(),
                alertsAllowPrivate, alertsDashboardUrl, null));
        Daemon daemon = new Daemon(engine.reconciler(), engine.reviews(), branch, every, address, secret, Clock.systemUTC(), ready,
                dashboard.handler(engine.views(), spec));
        if (shards != null) {
            daemon.readyOnlyWhen(shards::unknown);
            // Who holds what, from the Leases at each look: on /metrics and on the dashboard's fleet page.
            daemon.metrics().watchShards(() -> shards.spread(true));
            engine.views().shards(() -> shards.spread(true));
        }
        daemon.start();
        taken.set(() -> {
            engine.reconciler().readStatusAgain();
            daemon.runSoon();
        });
        if (shards != null) {
            taken.get().run();
            log.info("standing for {} shards of the fleet: {}", shards.count(), shards.describe());
        }
        if (leadership != null) {
            // The new holder reads the status its predecessor recorded, and starts at once.
            leadership.start(() -> {
                engine.reconciler().readStatusAgain();
                daemon.runSoon();
            });
            log.info("standing for {} as {}", leadership.settings().describe(), leadership.settings().identity());
        }
        log.info("windlass running as {}: {} branch {} every {}, status on {}, kubeconfigs from {} and Secrets of namespace {} ({}), http on {}",
                leader.identity(), repo.repo, branch, every != null ? interval : daemon.interval().toSeconds() + "s (Settings)", statusBranch, confined,
                namespace(), managementCluster.unavailable() == null ? "management cluster " + managementCluster.config().getMasterUrl()
                        : "none: " + managementCluster.unavailable(), listen);
        // The JVM exits once this hook returns: the hook itself stops the engine, in order.
        CountDownLatch stopped = new CountDownLatch(1);
        dev.windlass.render.LiveRenders.stoppedByOwner();
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                stop(daemon, shards != null ? shards : leadership, engine, sandboxes, management, grace);
            } finally {
                stopped.countDown();
            }
        }, "windlass-shutdown"));
        stopped.await();
        return 0;
    }

    /**
     * No new passes; the pass in flight gets {@code grace} to finish; then the lease is released (so another replica takes
     * over at once), and the clients, the mirror and any sandbox close.
     */
    private static void stop(Daemon daemon, AutoCloseable leadership, Engine engine, SandboxSupply sandboxes, KubernetesClient management,
                             Duration grace) {
        log.info("stopping: no new passes, waiting up to {}s for the pass in flight", grace.toSeconds());
        try {
            if (daemon.shutdown(grace)) {
                log.info("stopped: no pass left running");
            } else {
                log.warn("stopped with a pass still running after {}s: it ends with the process; whatever it had to record "
                        + "before applying is recorded, and the next pass takes over from there", grace.toSeconds());
            }
        } catch (Exception e) {
            log.error("stopping the daemon failed: {}", e.getMessage(), e);
        } finally {
            int renders = dev.windlass.render.LiveRenders.running();
            dev.windlass.render.LiveRenders.stopAll();
            if (renders > 0) log.info("stopped {} render{} still running, and deleted their folders", renders, renders == 1 ? "" : "s");
            if (leadership != null) {
                try {
                    leadership.close();
                } catch (Exception e) {
                    log.warn("releasing the lease failed: {}", e.toString());
                }
            }
            engine.close();
            sandboxes.close();
            if (management != null) management.close();
        }
    }

    private Duration duration(String option, String text) {
        if (text == null) return null;
        Duration d = Durations.parse(text);
        if (d == null || d.isZero()) {
            throw new CommandLine.ParameterException(spec.commandLine(), Durations.problem(option, text, "30s or 5m"));
        }
        return d;
    }
}
