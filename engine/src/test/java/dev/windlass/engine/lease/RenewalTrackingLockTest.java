package dev.windlass.engine.lease;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.windlass.engine.MutableClock;
import dev.windlass.kubetest.Await;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderCallbacks;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderElectionConfigBuilder;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderElector;
import io.fabric8.kubernetes.client.extended.leaderelection.resourcelock.LeaderElectionRecord;
import io.fabric8.kubernetes.client.extended.leaderelection.resourcelock.Lock;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * When a replica may take a Lease another holds: only once the record has stood unchanged for a lease duration on this
 * replica's own monotonic clock, whatever renew time the other replica wrote. The clocks here are moved by hand.
 */
class RenewalTrackingLockTest {
    static final Duration LEASE = Duration.ofSeconds(6);
    static final Instant START = Instant.parse("2026-11-27T12:00:00Z");

    final AtomicLong nanos = new AtomicLong(1_000_000_000L);
    final MutableClock wall = new MutableClock(START);
    final MemoryLock server = new MemoryLock("me");
    final RenewalTrackingLock lock = new RenewalTrackingLock(server, () -> {}, RenewalTrackingLock.TakeGate.ALWAYS, nanos::get, wall);

    /** Both clocks move on together, as they do on a host whose wall clock is not stepped. */
    void elapse(Duration d) {
        nanos.addAndGet(d.toNanos());
        wall.advance(d);
    }

    /** fabric8's rule (LeaderElector.canBecomeLeader): free, or its renew time plus its duration lies behind the wall clock. */
    boolean electorWouldTake(LeaderElectionRecord r) {
        return r.getHolderIdentity() == null || r.getHolderIdentity().isEmpty()
                || ZonedDateTime.now(wall).isAfter(r.getRenewTime().plus(r.getLeaseDuration()));
    }

    static LeaderElectionRecord held(String holder, ZonedDateTime renewed, int transitions) {
        return new LeaderElectionRecord(holder, LEASE, renewed.minusMinutes(3), renewed, transitions);
    }

    ZonedDateTime wallNow() { return ZonedDateTime.ofInstant(wall.instant(), ZoneOffset.UTC); }

    @Test
    void aFreeOrExpiredLeaseIsTakenOnlyWhenTheGateSaysSoAndTheGateHearsHowLongItHasBeenFree() {
        List<Duration> asked = new CopyOnWriteArrayList<>();
        boolean[] allow = {false};
        RenewalTrackingLock gated = new RenewalTrackingLock(server, () -> {}, freeFor -> {
            asked.add(freeFor);
            return allow[0];
        }, nanos::get, wall);
        server.record = null;
        LeaderElectionRecord none = gated.get(null);
        assertFalse(electorWouldTake(none), "no Lease yet, held back: handed as renewed just now");
        assertEquals(RenewalTrackingLock.HELD_BACK, none.getHolderIdentity());
        server.record = new LeaderElectionRecord("", LEASE, wallNow(), wallNow(), 3);  // released by its holder
        elapse(Duration.ofSeconds(2));
        assertFalse(electorWouldTake(gated.get(null)));
        elapse(Duration.ofSeconds(2));
        assertFalse(electorWouldTake(gated.get(null)));
        assertEquals(List.of(Duration.ZERO, Duration.ofSeconds(2), Duration.ofSeconds(4)), asked,
                "free since the first read: the released record counts on from the missing one");
        allow[0] = true;
        assertTrue(electorWouldTake(gated.get(null)), "the gate lets it through");

        // Held by another and renewed: the gate is not asked. Once it stood unchanged for its duration, it is.
        asked.clear();
        server.record = held("r1", wallNow(), 4);
        allow[0] = false;
        assertFalse(electorWouldTake(gated.get(null)));
        elapse(LEASE.plusMillis(1));
        assertEquals(List.of(), asked);
        LeaderElectionRecord expired = gated.get(null);
        assertFalse(electorWouldTake(expired), "expired, but held back");
        assertEquals("r1", expired.getHolderIdentity());
        assertEquals(List.of(Duration.ZERO), asked);
        assertTrue(gated.liveHolder().isEmpty(), "an expired holder is not a live one");
        allow[0] = true;
        elapse(Duration.ofSeconds(1));
        assertTrue(electorWouldTake(gated.get(null)));
        assertEquals(Duration.ofSeconds(1), asked.get(asked.size() - 1));
    }

    @Test
    void aReleasedLeaseNamesNoHolderAndIsNotRenewedBackWithoutTheGate() {
        boolean[] allow = {true};
        RenewalTrackingLock gated = new RenewalTrackingLock(server, () -> {}, freeFor -> allow[0], nanos::get, wall);
        server.record = null;
        gated.get(null);
        gated.create(null, held("me", wallNow(), 0));
        assertTrue(gated.lastRenewal().isPresent());
        // fabric8's release: no holder, a one-second duration.
        gated.update(null, new LeaderElectionRecord(null, Duration.ofSeconds(1), wallNow(), wallNow(), 0));
        assertEquals("", server.record.getHolderIdentity(), "written with an empty holder, which a merge patch keeps");
        assertTrue(gated.lastRenewal().isEmpty());
        // Had the holder stayed (a server that kept it), the record would still name this replica: not its own any more.
        server.record = new LeaderElectionRecord("me", Duration.ofSeconds(1), wallNow(), wallNow(), 0);
        allow[0] = false;
        elapse(Duration.ofSeconds(2));
        LeaderElectionRecord handed = gated.get(null);
        assertFalse(electorWouldTake(handed) || handed.getHolderIdentity().equals("me"),
                "a lease this replica gave up is taken back only when the gate says so");
    }

    @Test
    void aLeaseWhoseRenewTimeWasWrittenStaleIsNotTakenUntilItStoodUnchangedForALeaseDuration() {
        // Created with a renew time 5.8 s behind this replica's clock (the writer's request was slow): by the record
        // alone it expires 0.2 s from now.
        LeaderElectionRecord stale = held("r1", wallNow().minus(Duration.ofMillis(5_800)), 4);
        server.record = stale;
        assertFalse(electorWouldTake(lock.get(null)), "first seen now");
        elapse(Duration.ofMillis(521));
        LeaderElectionRecord seen = lock.get(null);
        assertFalse(electorWouldTake(seen), "521 ms after it was first seen");
        assertTrue(electorWouldTake(stale), "by the record's own renew time it would be taken now");
        // What the elector copies into its write is as the server has it.
        assertEquals("r1", seen.getHolderIdentity());
        assertEquals(stale.getAcquireTime(), seen.getAcquireTime());
        assertEquals(4, seen.getLeaderTransitions());
        assertEquals(LEASE, seen.getLeaseDuration());

        elapse(LEASE.minus(Duration.ofMillis(521)));
        assertFalse(electorWouldTake(lock.get(null)), "exactly a lease duration after it was first seen");
        elapse(Duration.ofMillis(1));
        assertTrue(electorWouldTake(lock.get(null)), "unchanged for longer than a lease duration");
    }

    @Test
    void aRenewalSeenStartsTheCountAgainEvenWhenItsRenewTimeIsStale() {
        server.record = held("r1", wallNow().minusSeconds(30), 1);
        lock.get(null);
        elapse(Duration.ofSeconds(5));
        // r1 renews; its renew time is again far behind this replica's clock.
        server.record = held("r1", wallNow().minusSeconds(20), 1);
        assertFalse(electorWouldTake(lock.get(null)));
        elapse(Duration.ofSeconds(5));
        assertFalse(electorWouldTake(lock.get(null)), "10 s after the first read, 5 s after the renewal was seen");
        elapse(Duration.ofMillis(1_001));
        assertTrue(electorWouldTake(lock.get(null)), "a lease duration after the renewal was seen");
    }

    @Test
    void anotherHolderOrTransitionCountsAsAChange() {
        server.record = held("r1", wallNow(), 1);
        lock.get(null);
        elapse(Duration.ofSeconds(5));
        ZonedDateTime renewed = server.record.getRenewTime();
        server.record = held("r2", renewed, 2);
        lock.get(null);
        elapse(Duration.ofSeconds(5));
        assertFalse(electorWouldTake(lock.get(null)), "r2 was first seen 5 s ago");
        server.record = new LeaderElectionRecord("r2", LEASE, renewed.minusMinutes(3), renewed, 3);
        elapse(Duration.ofSeconds(5));
        assertFalse(electorWouldTake(lock.get(null)), "the transitions changed: seen just now");
    }

    @Test
    void aStepOfTheWallClockDoesNotExpireALease() {
        server.record = held("r1", wallNow(), 1);
        lock.get(null);
        nanos.addAndGet(Duration.ofSeconds(1).toNanos());
        wall.advance(Duration.ofHours(1));  // the wall clock jumps an hour ahead; one second passed
        assertFalse(electorWouldTake(lock.get(null)));
    }

    @Test
    void aFreeLeaseOrThisReplicasOwnIsHandedOnAsTheServerHasIt() {
        LeaderElectionRecord own = held("me", wallNow().minusSeconds(30), 7);
        server.record = own;
        assertSame(own, lock.get(null), "the elector renews it keeping its acquire time and transitions");
        LeaderElectionRecord released = new LeaderElectionRecord(null, Duration.ofSeconds(1), wallNow(), wallNow(), 7);
        server.record = released;
        assertSame(released, lock.get(null));
        server.record = null;
        assertNull(lock.get(null));
    }

    /**
     * fabric8's own elector over this lock: a Lease held by another whose record says it expired a minute ago is not
     * taken while this replica's monotonic clock stands still, however often the elector tries; once it has moved a
     * lease duration on, the elector takes it and counts one transition more than the server had.
     */
    @Test
    void theElectorTakesALeaseOnlyALeaseDurationAfterThisReplicaFirstSawIt() throws Exception {
        ZonedDateTime now = ZonedDateTime.now(ZoneOffset.UTC);
        server.record = new LeaderElectionRecord("r1", LEASE, now.minusMinutes(5), now.minusMinutes(1), 4);
        RenewalTrackingLock tracked = new RenewalTrackingLock(server, () -> {}, RenewalTrackingLock.TakeGate.ALWAYS, nanos::get, Clock.systemUTC());
        AtomicInteger started = new AtomicInteger();
        ExecutorService renewals = Executors.newSingleThreadExecutor();
        LeaderElector elector = new LeaderElector(null, new LeaderElectionConfigBuilder()
                .withName("test").withLock(tracked).withLeaseDuration(LEASE).withRenewDeadline(Duration.ofSeconds(4))
                .withRetryPeriod(Duration.ofMillis(10)).withReleaseOnCancel(false)
                .withLeaderCallbacks(new LeaderCallbacks(started::incrementAndGet, () -> {}, h -> {}))
                .build(), renewals);
        CompletableFuture<?> running = elector.start();
        try {
            Await.until(Duration.ofSeconds(20), "the elector to read the lease 20 times", () -> server.reads.get(), n -> n >= 20);
            assertEquals(List.of(), server.writes.stream().map(LeaderElectionRecord::getHolderIdentity).toList(), "nothing written while the lease stood unchanged for less than a lease duration");
            assertEquals(0, started.get());

            nanos.addAndGet(LEASE.plusMillis(1).toNanos());
            Await.until(Duration.ofSeconds(20), "the elector to take the lease", () -> server.record.getHolderIdentity(), "me"::equals);
            assertEquals(5, server.record.getLeaderTransitions(), "one transition more than the server had");
            assertEquals(1, started.get());
        } finally {
            running.cancel(true);
            renewals.shutdownNow();
        }
    }

    /** A Lease in memory: what the API server has, and every write. */
    static final class MemoryLock implements Lock {
        final String identity;
        volatile LeaderElectionRecord record;
        final AtomicInteger reads = new AtomicInteger();
        final List<LeaderElectionRecord> writes = new CopyOnWriteArrayList<>();

        MemoryLock(String identity) { this.identity = identity; }

        @Override public LeaderElectionRecord get(KubernetesClient client) {
            reads.incrementAndGet();
            return record;
        }

        @Override public synchronized void create(KubernetesClient client, LeaderElectionRecord r) {
            if (record != null) throw new IllegalStateException("exists");
            writes.add(r);
            record = r;
        }

        @Override public synchronized void update(KubernetesClient client, LeaderElectionRecord r) {
            writes.add(r);
            record = r;
        }

        @Override public String identity() { return identity; }

        @Override public String describe() { return "memory lease (" + identity + ")"; }
    }
}
