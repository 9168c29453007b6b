package dev.windlass.engine.lease;

import dev.windlass.policy.fence.WriteFence;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderCallbacks;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderElectionConfigBuilder;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderElector;
import io.fabric8.kubernetes.client.extended.leaderelection.resourcelock.LeaseLock;
import java.time.Duration;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * This replica's candidacy for the fleet's Lease, kept by fabric8's {@link LeaderElector} with a {@link LeaseLock}, and
 * the write fence that follows from it. The fence is open only while this replica holds the lease and renewed it less
 * than {@link LeaseSettings#writableFor()} ago on the monotonic clock: a holder whose renewals stop (a frozen process,
 * a partition) stops writing {@link LeaseSettings#safetyMargin()} before any other replica may take the lease over.
 * A replica that lost the lease stands again as a candidate.
 */
public final class Leadership implements WriteFence, AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(Leadership.class);

    /** The label that says which part of the fleet a Lease is for: {@code fleet} here; a shard's number later. */
    public static final String SHARD_LABEL = "windlass.dev/shard";

    private final KubernetesClient client;
    private final LeaseSettings settings;
    private final Executor renewals;
    private final String shard;
    private final RenewalTrackingLock.TakeGate gate;
    private volatile boolean leading;
    private volatile boolean known;
    private volatile String holder = "";
    private volatile RenewalTrackingLock lock;
    private CompletableFuture<?> candidacy;     // guarded by this
    private Runnable onLeading = () -> {};      // guarded by this
    private boolean closed;                     // guarded by this

    /** @param renewals where the elector's acquire and renew attempts run (one thread is enough) */
    public Leadership(KubernetesClient client, LeaseSettings settings, Executor renewals) {
        this(client, settings, renewals, "fleet");
    }

    /** @param shard the value of the Lease's {@value #SHARD_LABEL} label: {@code fleet}, or a shard's number */
    public Leadership(KubernetesClient client, LeaseSettings settings, Executor renewals, String shard) {
        this(client, settings, renewals, shard, RenewalTrackingLock.TakeGate.ALWAYS);
    }

    /** @param gate asked before this replica takes the lease while it is free: how shards spread over the replicas */
    Leadership(KubernetesClient client, LeaseSettings settings, Executor renewals, String shard, RenewalTrackingLock.TakeGate gate) {
        this.client = client;
        this.settings = settings;
        this.renewals = renewals;
        this.shard = shard;
        this.gate = gate;
    }

    /** Stands as a candidate; {@code onLeading} runs (on the elector's thread, so it must not block) each time this replica becomes the holder. */
    public synchronized Leadership start(Runnable onLeading) {
        this.onLeading = onLeading;
        stand();
        return this;
    }

    private synchronized void stand() {
        if (closed) return;
        RenewalTrackingLock tracked = new RenewalTrackingLock(new LeaseLock(new ObjectMetaBuilder()
                .withNamespace(settings.namespace()).withName(settings.name())
                .addToLabels("app.kubernetes.io/name", "windlass").addToLabels(SHARD_LABEL, shard).build(), settings.identity()), () -> known = true,
                gate);
        lock = tracked;
        LeaderElector elector = new LeaderElector(client, new LeaderElectionConfigBuilder()
                .withName("windlass")
                .withLock(tracked)
                .withLeaseDuration(settings.leaseDuration())
                .withRenewDeadline(settings.renewDeadline())
                .withRetryPeriod(settings.retryPeriod())
                .withReleaseOnCancel(true)
                .withLeaderCallbacks(new LeaderCallbacks(this::started, this::stopped, this::newHolder))
                .build(), renewals);
        candidacy = elector.start();
        candidacy.whenComplete((done, error) -> {
            leading = false;
            if (error != null && !(error instanceof java.util.concurrent.CancellationException)) {
                log.warn("{}: the election stopped: {}", settings.describe(), error.toString());
            }
            // The elector ends once this replica lost the lease (or could not renew it in time): stand again.
            CompletableFuture.delayedExecutor(settings.retryPeriod().toMillis(), TimeUnit.MILLISECONDS).execute(this::stand);
        });
    }

    private void started() {
        leading = true;
        log.info("{}: {} holds it now and runs the passes", settings.describe(), settings.identity());
        Runnable then;
        synchronized (this) {
            then = onLeading;
        }
        then.run();
    }

    private void stopped() {
        leading = false;
        log.info("{}: {} no longer holds it; it writes nothing until it holds it again", settings.describe(), settings.identity());
    }

    private void newHolder(String identity) {
        holder = identity == null || identity.equals(RenewalTrackingLock.HELD_BACK) ? "" : identity;
    }

    /** Whether this replica holds the lease as the elector last saw it (the fence also asks how long ago it renewed). */
    public boolean leading() { return leading; }

    /** Whether the elector has read the Lease at least once: this replica knows whether it or another holds it. */
    public boolean known() { return known; }

    /** The holder the elector last saw ("" when none). */
    public String holder() { return holder; }

    /**
     * Who holds the lease now as this replica reads it: this replica while it leads, else another whose record has not
     * stood unchanged for its duration; empty when the lease is free or expired.
     */
    public Optional<String> liveHolder() {
        if (leading) return Optional.of(settings.identity());
        RenewalTrackingLock tracked = lock;
        return tracked == null ? Optional.empty() : tracked.liveHolder();
    }

    /**
     * Gives the lease up and stands again as a candidate: the fence closes first, then the elector writes the Lease
     * free, so another replica takes it at once. Called between passes, when shards spread to a replica holding fewer.
     */
    public void release() {
        CompletableFuture<?> running;
        synchronized (this) {
            running = candidacy;
        }
        leading = false;
        if (running != null) running.cancel(true);
        log.info("{}: {} gave it up between passes, for a replica that holds fewer shards", settings.describe(), settings.identity());
    }

    public LeaseSettings settings() { return settings; }

    @Override public Optional<String> refusal() {
        if (!leading) {
            String other = holder.isEmpty() || holder.equals(settings.identity()) ? "no one else known yet" : holder;
            return Optional.of(settings.describe() + " is not held by " + settings.identity() + " (holder: " + other + ")");
        }
        OptionalLong renewed = lock.lastRenewal();
        if (renewed.isEmpty()) return Optional.of(settings.describe() + " was not renewed by " + settings.identity());
        Duration since = Duration.ofNanos(System.nanoTime() - renewed.getAsLong());
        if (since.compareTo(settings.writableFor()) >= 0) {
            return Optional.of(settings.describe() + " was last renewed " + since.toMillis() + " ms ago, longer than the "
                    + settings.writableFor().toMillis() + " ms a holder may write after a renewal");
        }
        return Optional.empty();
    }

    /** Stops standing; a holder releases the lease, so another replica takes over at once. */
    @Override public void close() {
        CompletableFuture<?> running;
        synchronized (this) {
            closed = true;
            running = candidacy;
        }
        leading = false;
        if (running != null) running.cancel(true);
    }
}
