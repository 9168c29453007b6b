package dev.windlass.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.windlass.engine.lease.LeaseSettings;
import dev.windlass.engine.lease.Leadership;
import dev.windlass.kubetest.Await;
import dev.windlass.kubetest.KubeApiServer;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.api.model.coordination.v1.LeaseBuilder;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Duration;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A Lease whose renew times reach the API server late, on a real API server: the holder keeps renewing, but each renew
 * time it writes is already seconds old when the server has it (its requests are slow, or its clock is behind). The
 * other replica must not take the Lease while the holder renews, however old the renew time looks on its own clock; once
 * the renewals stop, it takes it. What is checked is what an operator sees on the Lease: its holder and its transitions.
 */
class LateRenewalIT {
    static final String NAMESPACE = "default";
    static final Duration LEASE = Duration.ofSeconds(6);
    static final Duration WAIT = Duration.ofSeconds(60);
    /**
     * How many late renewals the other replica must let pass: 6 (about 35 s) by default; a soak sets more, e.g.
     * {@code -Dwindlass.lateRenewals=110} for about 10 minutes.
     */
    static final int LATE_RENEWALS = Integer.getInteger("windlass.lateRenewals", 6);
    static KubeApiServer management;

    @BeforeAll static void start() { management = KubeApiServer.start(); }

    @AfterAll static void stop() { if (management != null) management.close(); }

    /** The holder gives the lease up if a renewal has not succeeded 0.5 s before it would expire; it writes for 2 s less. */
    static LeaseSettings settings(String lease, String identity, Duration duration, Duration retry) {
        return new LeaseSettings(NAMESPACE, lease, identity, duration, duration.minusMillis(500), retry, Duration.ofSeconds(2));
    }

    /**
     * Every request of the holder reaches the API server 2.75 s late (a TCP proxy on the loopback interface), so each of
     * its renewals lands about 5.5 s after the renew time it carries (the elector stamps it before its read and its
     * write), and the next lands about 5.5 s later (the holder tries again at once; a renewal takes 5.5 s of its 7.5 s
     * deadline). By the record alone, the 8 s lease looks expired 2.5 s after each renewal landed: a candidate that
     * compares the renew time with its own clock takes the lease in that gap. Counted from when the candidate saw each
     * renewal, it does not expire: the renewals are seen less than 8 s apart.
     */
    @Test
    void aHolderWhoseRenewalsLandLateKeepsTheLeaseWhileItRenews() throws Exception {
        String lease = "late-renewals";
        Duration duration = Duration.ofSeconds(8);
        try (SlowLink link = new SlowLink(management.url(), Duration.ofMillis(2_750));
             KubernetesClient slowClient = new KubernetesClientBuilder()
                     .withConfig(new ConfigBuilder(management.config()).withMasterUrl(link.url()).build()).build();
             KubernetesClient client = management.newClient();
             FreezableExecutor slowRenewals = new FreezableExecutor();
             Daemon renewals = new Daemon();
             Renewals watched = new Renewals(client, lease);
             Leadership slow = new Leadership(slowClient, settings(lease, "replica-slow", duration, Duration.ofMillis(500)), slowRenewals);
             Leadership other = new Leadership(client, settings(lease, "replica-other", duration, Duration.ofMillis(200)), renewals)) {
            slow.start(() -> {});
            Await.until(WAIT, "replica-slow holds the lease", () -> holder(client, lease), "replica-slow"::equals);
            int transitions = transitions(client, lease);
            int renewalsBefore = watched.renewalsBy("replica-slow");

            other.start(() -> {});
            Await.until(WAIT, "replica-other has read the lease", other::known, k -> k);
            Await.until(WAIT.plusSeconds(8L * LATE_RENEWALS), "replica-slow renewed " + LATE_RENEWALS + " times more (about 5.5 s each)",
                    () -> watched.renewalsBy("replica-slow") - renewalsBefore, n -> n >= LATE_RENEWALS || watched.holders().size() > 1);

            Duration longestGap = watched.longestGap();
            List<String> holders = watched.holders();
            assertTrue(longestGap.compareTo(duration) < 0, "the Lease was written less than a lease duration apart, as a reader beside "
                    + "the API server saw it; the longest gap, " + longestGap.toMillis() + " ms, is a holder too slow even for its "
                    + "own deadline (a machine too loaded for this test), and then a takeover is right; holders: " + holders + "; connections: " + link.connections());
            assertEquals(List.of("replica-slow"), holders, "the holders the Lease had, in turn");
            // What made it hard: by the record alone, the lease looked expired before the next renewal landed.
            int expiredLooking = watched.lookedExpired("replica-slow", duration);
            assertTrue(expiredLooking >= 2, "by its renew time, the lease looked expired before the next renewal landed, at least "
                    + "twice (each such gap, longer than the other's retry, was a chance to take it by the record): " + expiredLooking + "; how late each landed: "
                    + watched.lateness("replica-slow") + "; connections: " + link.connections());
            assertEquals(transitions, transitions(client, lease), "no transition while the holder renewed");
            assertFalse(other.leading());
            assertEquals("replica-slow", other.holder());
            System.out.printf("late renewals: replica-slow renewed %d times; %d times its lease looked expired by the record before "
                    + "the next renewal landed; renewals seen at most %d ms apart, over %d connections; replica-other never took the "
                    + "8 s lease%n", watched.renewalsBy("replica-slow") - renewalsBefore, expiredLooking, longestGap.toMillis(),
                    link.connections());

            // The holder's renewals stop: now the other takes the lease, once.
            slowRenewals.freeze();
            Await.until(WAIT, "replica-other holds the lease", () -> holder(client, lease), "replica-other"::equals);
            assertEquals(transitions + 1, transitions(client, lease));
            assertEquals(List.of("replica-slow", "replica-other"), Await.until(WAIT, "the reader to see the new holder",
                    watched::holders, h -> h.size() > 1));
        }
    }

    /**
     * A writer that holds the Lease and renews it every second, each time with a renew time half a minute old (a host
     * whose clock is behind). The other replica does not take it while it renews; it takes it a lease duration after
     * the renewals stop, and counts one transition more than the writer left.
     */
    @Test
    void aLeaseRenewedWithStaleRenewTimesIsNotTakenWhileItIsRenewed() throws Exception {
        String lease = "stale-renew-times";
        try (KubernetesClient client = management.newClient();
             Daemon renewals = new Daemon();
             Renewals watched = new Renewals(client, lease)) {
            ZonedDateTime now = ZonedDateTime.now(ZoneOffset.UTC);
            client.resource(new LeaseBuilder().withNewMetadata().withName(lease).withNamespace(NAMESPACE).endMetadata()
                    .withNewSpec().withHolderIdentity("writer").withLeaseDurationSeconds((int) LEASE.toSeconds())
                    .withAcquireTime(now.minusMinutes(1)).withRenewTime(now.minusSeconds(30)).withLeaseTransitions(3).endSpec()
                    .build()).create();
            try (Leadership other = new Leadership(client, settings(lease, "replica-other", LEASE, Duration.ofMillis(200)), renewals)) {
                other.start(() -> {});
                Await.until(WAIT, "replica-other has read the lease", other::known, k -> k);
                int renewed = 0;
                for (; renewed < 10 && renewStale(client, lease); renewed++) Thread.sleep(1_000);  // the writer's pace
                assertEquals(10, renewed, "the writer renewed 10 times (about 10 s, over a lease duration) and still held the lease");
                assertEquals(List.of("writer"), watched.holders());
                assertEquals(3, transitions(client, lease));
                assertFalse(other.leading());

                Await.until(WAIT, "replica-other holds the lease once the writer stopped", () -> holder(client, lease), "replica-other"::equals);
                assertEquals(4, transitions(client, lease));
                assertEquals(List.of("writer", "replica-other"), Await.until(WAIT, "the reader to see the new holder",
                        watched::holders, h -> h.size() > 1));
            }
        }
    }

    /** The writer renews with a renew time 30 s old; false once another replica holds the Lease (the write is not made). */
    private static boolean renewStale(KubernetesClient client, String lease) {
        Lease current = client.resources(Lease.class).inNamespace(NAMESPACE).withName(lease).get();
        if (!"writer".equals(current.getSpec().getHolderIdentity())) return false;
        current.getSpec().setRenewTime(ZonedDateTime.now(ZoneOffset.UTC).minusSeconds(30));
        try {
            client.resource(current).update();  // with the resourceVersion read: a takeover in between is a conflict
            return true;
        } catch (KubernetesClientException e) {
            if (e.getCode() == 409) return false;
            throw e;
        }
    }

    /** One daemon thread for a replica's acquire and renew attempts. */
    static final class Daemon implements Executor, AutoCloseable {
        private final ExecutorService thread = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "renewals");
            t.setDaemon(true);
            return t;
        });

        @Override public void execute(Runnable task) { thread.execute(task); }

        @Override public void close() { thread.shutdownNow(); }
    }

    private static String holder(KubernetesClient client, String lease) {
        Lease l = client.resources(Lease.class).inNamespace(NAMESPACE).withName(lease).get();
        return l == null || l.getSpec() == null ? null : l.getSpec().getHolderIdentity();
    }

    private static int transitions(KubernetesClient client, String lease) {
        Lease l = client.resources(Lease.class).inNamespace(NAMESPACE).withName(lease).get();
        return l.getSpec().getLeaseTransitions() == null ? 0 : l.getSpec().getLeaseTransitions();
    }

    /**
     * Reads the Lease every 20 ms: its holders in turn, the renewals each made, and how old the newest renew time
     * was when it was first seen.
     */
    static final class Renewals implements AutoCloseable {
        private final List<String> holders = new ArrayList<>();   // guarded by this
        private final List<String> renewals = new ArrayList<>();  // guarded by this: the holder of each renew time seen
        private final Map<String, List<ZonedDateTime[]>> renewTimes = new HashMap<>();  // guarded by this: per holder, {renew time, first seen}
        private ZonedDateTime lastRenewTime;                      // guarded by this
        private long lastRenewalSeen;                             // guarded by this: System.nanoTime(); 0 before the first
        private long longestGap;                                  // guarded by this: nanoseconds
        private final AtomicBoolean closed = new AtomicBoolean();
        private final Daemon thread = new Daemon();

        Renewals(KubernetesClient client, String lease) {
            thread.execute(() -> {
                while (!closed.get()) {
                    try {
                        Lease l = client.resources(Lease.class).inNamespace(NAMESPACE).withName(lease).get();
                        if (l != null && l.getSpec() != null) seen(l, ZonedDateTime.now(ZoneOffset.UTC), System.nanoTime());
                        Thread.sleep(20);
                    } catch (InterruptedException e) {
                        return;
                    } catch (RuntimeException e) {
                        // the next read tells
                    }
                }
            });
        }

        private synchronized void seen(Lease l, ZonedDateTime at, long nanos) {
            String holder = l.getSpec().getHolderIdentity();
            if (holder != null && (holders.isEmpty() || !holders.get(holders.size() - 1).equals(holder))) holders.add(holder);
            ZonedDateTime renewed = l.getSpec().getRenewTime();
            if (renewed != null && !Objects.equals(renewed, lastRenewTime)) {
                lastRenewTime = renewed;
                if (lastRenewalSeen != 0) longestGap = Math.max(longestGap, nanos - lastRenewalSeen);
                lastRenewalSeen = nanos;
                renewals.add(holder);
                renewTimes.computeIfAbsent(String.valueOf(holder), h -> new ArrayList<>()).add(new ZonedDateTime[] {renewed, at});
            }
        }

        synchronized List<String> holders() { return List.copyOf(holders); }

        /** The longest time between two writes of the Lease (its renew time changed) this reader saw, so far. */
        synchronized Duration longestGap() { return Duration.ofNanos(longestGap); }

        synchronized int renewalsBy(String holder) { return (int) renewals.stream().filter(holder::equals).count(); }

        /** How old each of {@code holder}'s renew times was when this reader first saw it, in ms. */
        synchronized List<Long> lateness(String holder) {
            return renewTimes.getOrDefault(holder, List.of()).stream().map(t -> Duration.between(t[0], t[1]).toMillis()).toList();
        }

        /** How often {@code holder}'s renew time plus {@code duration} had passed before this reader saw its next renewal. */
        synchronized int lookedExpired(String holder, Duration duration) {
            List<ZonedDateTime[]> all = renewTimes.getOrDefault(holder, List.of());
            int n = 0;
            for (int k = 0; k + 1 < all.size(); k++) if (all.get(k)[0].plus(duration).isBefore(all.get(k + 1)[1])) n++;
            return n;
        }

        @Override public void close() {
            closed.set(true);
            thread.close();
        }
    }
}
