package dev.windlass.engine.reconcile;

import dev.windlass.applier.Applier;
import dev.windlass.applier.cluster.ClientSettings;
import dev.windlass.applier.cluster.ClusterClients;
import dev.windlass.applier.cluster.ManagementCluster;
import dev.windlass.git.Mirror;
import dev.windlass.git.RetryPolicy;
import dev.windlass.git.StatusWriter;
import dev.windlass.policy.fence.WriteFence;
import dev.windlass.sandbox.Sandbox;
import dev.windlass.engine.lease.ReplicaIdentity;
import dev.windlass.engine.review.Pinning;
import dev.windlass.engine.review.ReviewPass;
import dev.windlass.dashboard.FleetView;
import dev.windlass.dashboard.ViewBoard;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.SortedMap;
import java.util.TreeMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import java.time.Duration;
import java.util.function.Function;

/** The parts of a running engine wired together: mirror, status writer, fleet and reconciler. */
public final class Engine implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(Engine.class);
    private final Mirror mirror;
    private final ClusterFleet fleet;
    private final Reconciler reconciler;
    private dev.windlass.engine.alerts.AlertDelivery alertDelivery;
    private java.util.concurrent.ScheduledExecutorService alertRecorder;
    private final ReviewPass reviews;
    private final StatusWriter status;
    private final String branch;
    private final Clock clock;
    /** What the dashboard shows: the view this engine publishes after each pass. */
    private final ViewBoard views = new ViewBoard();

    public Engine(Mirror mirror, String branch, String statusBranch, Sandbox sandbox, Clock clock) {
        this(mirror, branch, statusBranch, sandbox, clock, System::getenv);
    }

    /** @param env where review host tokens are looked up ({@code Settings.spec.review.host.tokenEnv}) */
    public Engine(Mirror mirror, String branch, String statusBranch, Sandbox sandbox, Clock clock, Function<String, String> env) {
        this(mirror, branch, statusBranch, sandbox, clock, env, ClientSettings.DEFAULT);
    }

    /** @param clients how clusters are reached: timeouts, and the directory kubeconfig paths must lead into */
    public Engine(Mirror mirror, String branch, String statusBranch, Sandbox sandbox, Clock clock, Function<String, String> env,
                  ClientSettings clients) {
        this(mirror, branch, statusBranch, sandbox, clock, env, clients, WriteFence.OPEN);
    }

    /**
     * @param fence asked before every write to a cluster and every push to the status branch; a replica with leader
     *              election passes its lease's fence ({@code lease/LeaseFence})
     */
    public Engine(Mirror mirror, String branch, String statusBranch, Sandbox sandbox, Clock clock, Function<String, String> env,
                  ClientSettings clients, WriteFence fence) {
        this(mirror, branch, statusBranch, sandbox, clock, env, clients, fence, ManagementCluster.NONE);
    }

    /** Without leader election, with a management cluster. */
    public Engine(Mirror mirror, String branch, String statusBranch, Sandbox sandbox, Clock clock, Function<String, String> env,
                  ClientSettings clients, ManagementCluster management) {
        this(mirror, branch, statusBranch, sandbox, clock, env, clients, WriteFence.OPEN, management);
    }

    /** @param management the cluster the engine runs in: {@code inCluster} clusters, and the Secrets of {@code kubeconfigSecretRef} */
    public Engine(Mirror mirror, String branch, String statusBranch, Sandbox sandbox, Clock clock, Function<String, String> env,
                  ClientSettings clients, WriteFence fence, ManagementCluster management) {
        this(mirror, branch, statusBranch, SandboxSupply.of(sandbox), clock, env, clients, fence, management);
    }

    /** @param sandboxes where sandbox clusters come from; the running engine starts the sandbox only when Git lists one */
    public Engine(Mirror mirror, String branch, String statusBranch, SandboxSupply sandboxes, Clock clock, Function<String, String> env,
                  ClientSettings clients, WriteFence fence, ManagementCluster management) {
        this(mirror, branch, statusBranch, sandboxes, clock, env, clients, fence, management, ReplicaIdentity.generate());
    }

    /**
     * @param replica this replica's identity, as it stands for its leases: every status commit it makes names it, with the
     *                shards its pass held ({@code Windlass-Replica}, {@code Windlass-Shards})
     */
    public Engine(Mirror mirror, String branch, String statusBranch, SandboxSupply sandboxes, Clock clock, Function<String, String> env,
                  ClientSettings clients, WriteFence fence, ManagementCluster management, String replica) {
        this.mirror = mirror;
        ClusterClients clusterClients = new ClusterClients(clients, management);
        this.fleet = new ClusterFleet(clusterClients, new Applier(clusterClients), sandboxes);
        this.status = new StatusWriter(mirror, statusBranch, RetryPolicy.DEFAULT, fence);
        this.branch = branch;
        this.clock = clock;
        // A fence that is a replica's shard leases makes every pass act for the shards it holds then.
        this.reconciler = new Reconciler(mirror, branch, status, fleet, clock, new Pinning(mirror, status, env), fence,
                fence instanceof Shards shards ? shards : null, replica);
        // A replica gives up a shard, to spread them, only between two of its passes.
        if (fence instanceof Shards shards) shards.spreadBetweenPasses(reconciler::betweenPasses);
        // An application's own decryption keys: a Secret of the engine's namespace, read as kubeconfigSecretRef's are.
        reconciler.readDecryptionSecretsWith(clusterClients::secretData);
        reconciler.onPass((report, state) -> views.publish(new FleetView(clock.instant(), branch, report.source(), state, report.desired(),
                report.plan(), reviewPlans(), reconciler.writer().describe(), reconciler.verification())));
        java.util.function.Supplier<dev.windlass.policy.state.EngineState> recordedState = () -> {
            try {
                return reconciler.state();
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        };
        // With shards, reviews see the other shards' clusters as recorded, as the replica's passes do.
        Fleet reviewFleet = new ShardedReviewFleet(fleet, reconciler::scope, () -> new RecordedFleet(mirror, recordedState.get()));
        this.reviews = new ReviewPass(mirror, branch, status, reviewFleet, clock, recordedState, env, reconciler::writer);
        reviews.onReviewed(() -> views.reviews(reviewPlans()));
    }

    /**
     * Each reviewed branch's plan as its pull request comment has it, from {@code plans/} on the status branch, by ref; main's
     * own plan file is left out (the view carries main's plan itself). Read again only when the status branch moved: a
     * pass with nothing new reads none of it. Trouble reading is logged, and the dashboard keeps what it had.
     */
    private SortedMap<String, String> reviewPlans() {
        try {
            // As the pass's fetch (or this engine's own push) left the status branch: no round trip of its own.
            java.util.Optional<String> tip = mirror.resolve(status.branch());
            ReviewPlans last = reviewPlans;
            if (last != null && last.statusTip().equals(tip)) return last.plans();
            SortedMap<String, String> out = new TreeMap<>();
            String mainFile = branch.replace('/', '-');
            dev.windlass.git.StatusRead read = status.readLocal("plans/");
            for (var e : read.files().entrySet()) {
                String ref = e.getKey().substring("plans/".length()).replaceFirst("\\.md$", "");
                if (!ref.equals(mainFile)) out.put(ref, new String(e.getValue(), StandardCharsets.UTF_8));
            }
            ReviewPlans now = new ReviewPlans(read.commit(), java.util.Collections.unmodifiableSortedMap(out));
            reviewPlans = now;
            return now.plans();
        } catch (IOException e) {
            log.warn("the reviewed plans could not be read for the dashboard: {}", e.toString());
            return new TreeMap<>();
        }
    }

    /** The reviewed plans as read at a status branch commit. */
    private record ReviewPlans(java.util.Optional<String> statusTip, SortedMap<String, String> plans) {}

    private volatile ReviewPlans reviewPlans;

    /**
     * Applies only commits signed by {@code keys}: {@code required} is what the engine's flag requires whatever the repo
     * says ({@code Off}: only what the repo's Settings ask, which can only tighten it). See {@link CommitGate}.
     */
    public Engine verifyCommits(dev.windlass.git.TrustedKeys keys, dev.windlass.policy.model.VerifySettings.Mode required) {
        CommitGate gate = new CommitGate(mirror, branch, keys, required);
        reconciler.verifyWith(gate);
        reviews.verifyWith(keys, required);
        return this;
    }

    /** The view of the fleet this engine published after its last pass, for the dashboard. */
    public ViewBoard views() { return views; }

    public Reconciler reconciler() { return reconciler; }

    /** Plans the reviewed branches after a pass of the main branch (the daemon runs it after each pass). */
    public ReviewPass reviews() { return reviews; }

    public Sandbox sandbox() { return fleet.sandbox(); }

    public Mirror mirror() { return mirror; }

    /**
     * Waits until the engine's watch of every cluster holds what the cluster holds now. The next pass would see a
     * change made behind the engine's back anyway, once its watch delivered it (usually within milliseconds); a
     * scripted scene that changes a cluster and runs a pass at once calls this in between. True when all were current
     * within {@code timeout}.
     */
    public boolean awaitWatchesCurrent(Duration timeout) { return fleet.awaitWatchesCurrent(timeout); }

    /**
     * Delivers the repo's alerts: deliveries are recorded with the changes they tell of, sent by one worker per provider,
     * and what the workers finished is recorded within a second, between passes, or by the next pass.
     */
    public synchronized void alertWith(dev.windlass.engine.alerts.AlertSettings settings) {
        if (alertDelivery != null) throw new IllegalStateException("alerts are set up already");
        dev.windlass.engine.alerts.AddressGuard guard = dev.windlass.engine.alerts.AddressGuard.system(settings.allowPrivateAddresses());
        dev.windlass.engine.alerts.Sender sender = new dev.windlass.engine.alerts.Sender(settings.delivery().timeout(),
                new dev.windlass.engine.alerts.Messages(settings.dashboardUrl()), guard);
        alertDelivery = new dev.windlass.engine.alerts.AlertDelivery(sender, settings.delivery(), clock);
        alertRecorder = java.util.concurrent.Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "alerts-recorder");
            t.setDaemon(true);
            return t;
        });
        java.util.concurrent.atomic.AtomicBoolean due = new java.util.concurrent.atomic.AtomicBoolean();
        alertDelivery.onFinished(() -> {
            // Many finishing at once make one commit: recorded a moment after the first.
            if (due.compareAndSet(false, true)) alertRecorder.schedule(() -> {
                due.set(false);
                try {
                    reconciler.recordDeliveries();
                } catch (java.io.IOException | RuntimeException e) {
                    log.warn("alert deliveries could not be recorded now; the next pass records them: {}", e.toString());
                }
            }, 500, java.util.concurrent.TimeUnit.MILLISECONDS);
        });
        reconciler.alertWith(new dev.windlass.engine.alerts.ProviderEndpoints(settings.secrets(), guard), alertDelivery);
        views.alerts(() -> reconciler.deliveries().stream().map(d -> new dev.windlass.dashboard.AlertPanel.Row(d.event().at().toString(),
                d.event().kind().name(), d.event().severity().name(),
                d.event().app().isEmpty() ? "cluster " + d.event().cluster() : d.event().app() + (d.event().cluster().isEmpty() ? "" : " on " + d.event().cluster()),
                d.event().revision(), d.provider(), d.state().name(), d.attempts(), d.error())).toList());
    }

    @Override public void close() {
        if (alertDelivery != null) {
            alertDelivery.close();
            alertRecorder.shutdown();
            try {
                alertRecorder.awaitTermination(5, java.util.concurrent.TimeUnit.SECONDS);
                // What was delivered is recorded before the engine goes: a restart sends none of it again.
                reconciler.recordDeliveries();
            } catch (java.io.IOException | RuntimeException e) {
                log.warn("alert deliveries could not be recorded before closing; pending ones are sent again by the next engine: {}", e.toString());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        reconciler.stopRenders();
        fleet.close();
        mirror.close();
    }
}
