package dev.windlass.engine.lease;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.extended.leaderelection.resourcelock.LeaderElectionRecord;
import io.fabric8.kubernetes.client.extended.leaderelection.resourcelock.Lock;
import java.time.Clock;
import java.time.Duration;
import java.time.ZonedDateTime;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.LongSupplier;

/**
 * fabric8's lock, plus two clocks of this replica's own: when it last renewed the lease, and when it first saw the
 * record another replica holds, both on the monotonic clock.
 *
 * <p><b>The holder's view.</b> The elector reads the lease ({@link #get}) and then writes it with itself as holder
 * ({@link #create} or {@link #update}); the renewal counts from the moment the read began, which is before the API
 * server accepted the write (so before anyone else can have seen it), so the holder's idea of its lease never outlasts
 * what the others see.
 *
 * <p><b>A candidate's view.</b> The elector takes a lease held by another once its renew time plus its duration lies
 * behind the candidate's wall clock. That renew time is the other replica's wall clock at the moment it <em>began</em>
 * its attempt, however long the write then took: after one slow request a lease renewed a moment ago already looks
 * expired. So this lock hands the elector, for a lease held by another, the renew time as this replica saw it: the
 * instant it first read that record (holder, renew time, acquire time, transitions, duration) unchanged, on its
 * monotonic clock, expressed on its wall clock. A record seen to change starts the count again; the lease is expired
 * once it has stood unchanged for its lease duration in this replica's own reading. Everything else in the record is
 * handed on as the server has it: the elector copies the transitions (and, for its own lease, the acquire time) into what
 * it writes, and writes its own clock as the new renew time.
 *
 * <p><b>Holding back.</b> A lease that is free in this replica's reading (no holder, or one that has stood unchanged for
 * its duration, or no Lease yet) is taken only if the {@link TakeGate} says so: shards spread over the replicas
 * ({@code ShardSpread}). Otherwise the elector is handed the record as if renewed just now, so it tries again a retry
 * period later without writing anything.
 */
final class RenewalTrackingLock implements Lock {

    /** Whether this replica may take a lease that is free in its reading, free for {@code freeFor} so far. */
    interface TakeGate {
        TakeGate ALWAYS = freeFor -> true;

        boolean mayTake(Duration freeFor);
    }

    /** The holder named in a record handed to the elector for a free lease this replica holds back from; never written. */
    static final String HELD_BACK = "(held back by this replica)";

    private final Lock lock;
    private final Runnable read;
    private final TakeGate gate;
    private final LongSupplier nanos;
    private final Clock wall;
    private long attemptStarted;            // guarded by this: when the elector's current attempt began
    private Long lastRenewal;               // guarded by this: null when this replica does not hold the lease
    private LeaderElectionRecord observed;  // guarded by this: the record as last read from the server
    private long observedSince;             // guarded by this: when this replica first read that record, unchanged since
    private Long freeSince;                 // guarded by this: since when the lease has been free in this replica's reading

    /** @param read runs after each read of the lease that the API server answered */
    RenewalTrackingLock(Lock lock, Runnable read) {
        this(lock, read, TakeGate.ALWAYS, System::nanoTime, Clock.systemUTC());
    }

    /** @param gate asked before this replica takes a lease that is free in its reading */
    RenewalTrackingLock(Lock lock, Runnable read, TakeGate gate) {
        this(lock, read, gate, System::nanoTime, Clock.systemUTC());
    }

    /**
     * @param nanos the monotonic clock ({@link System#nanoTime()})
     * @param wall  the wall clock the elector compares renew times with (the system's, in UTC)
     */
    RenewalTrackingLock(Lock lock, Runnable read, TakeGate gate, LongSupplier nanos, Clock wall) {
        this.lock = lock;
        this.read = read;
        this.gate = gate;
        this.nanos = nanos;
        this.wall = wall;
    }

    @Override public LeaderElectionRecord get(KubernetesClient client) {
        synchronized (this) {
            attemptStarted = nanos.getAsLong();
        }
        LeaderElectionRecord record = lock.get(client);
        read.run();
        return observe(record);
    }

    /**
     * The record to hand the elector: for a lease held by another, its renew time as this replica observed it; for a
     * free one this replica holds back from, one renewed just now.
     */
    private LeaderElectionRecord observe(LeaderElectionRecord record) {
        LeaderElectionRecord handed;
        Duration freeFor;
        synchronized (this) {
            long now = nanos.getAsLong();
            if (!Objects.equals(record, observed)) {
                observed = record;
                observedSince = now;
            }
            boolean mine = record != null && record.getHolderIdentity() != null && record.getHolderIdentity().equals(identity());
            if (mine && lastRenewal != null) {
                freeSince = null;
                return record;  // this replica's own: the elector renews it, and reads no renew time
            }
            // A record naming this replica that it no longer holds (it gave the lease up) is as free as an empty one.
            boolean free = record == null || record.getHolderIdentity() == null || record.getHolderIdentity().isEmpty() || mine || expired(now);
            if (!free) {
                freeSince = null;
                ZonedDateTime seen = ZonedDateTime.now(wall).minus(Duration.ofNanos(now - observedSince));
                return new LeaderElectionRecord(record.getHolderIdentity(), record.getLeaseDuration(), record.getAcquireTime(), seen,
                        record.getLeaderTransitions());
            }
            if (freeSince == null) freeSince = now;
            freeFor = Duration.ofNanos(now - freeSince);
            handed = record == null || record.getHolderIdentity() == null || record.getHolderIdentity().isEmpty() || mine ? record
                    : new LeaderElectionRecord(record.getHolderIdentity(), record.getLeaseDuration(), record.getAcquireTime(),
                    ZonedDateTime.now(wall).minus(Duration.ofNanos(now - observedSince)), record.getLeaderTransitions());
        }
        // Asked outside this lock's monitor: the gate reads every shard's lease.
        if (gate.mayTake(freeFor)) return handed;
        ZonedDateTime now = ZonedDateTime.now(wall);
        String holder = record == null || record.getHolderIdentity() == null || record.getHolderIdentity().isEmpty()
                || record.getHolderIdentity().equals(identity()) ? HELD_BACK : record.getHolderIdentity();
        Duration duration = record == null || record.getLeaseDuration() == null ? Duration.ofSeconds(15) : record.getLeaseDuration();
        return new LeaderElectionRecord(holder, duration, record == null ? now : record.getAcquireTime(), now,
                record == null ? 0 : record.getLeaderTransitions());
    }

    /** Whether the record last read has stood unchanged for its lease duration, in this replica's reading. */
    private boolean expired(long now) {
        Duration duration = observed.getLeaseDuration() == null ? Duration.ZERO : observed.getLeaseDuration();
        return Duration.ofNanos(now - observedSince).compareTo(duration) > 0;
    }

    /**
     * The holder of the lease as this replica last read it, if another replica holds it and its record has not stood
     * unchanged for its duration; empty when the lease is free, expired, or this replica's own.
     */
    synchronized Optional<String> liveHolder() {
        if (observed == null || observed.getHolderIdentity() == null || observed.getHolderIdentity().isEmpty()
                || observed.getHolderIdentity().equals(identity()) || expired(nanos.getAsLong())) {
            return Optional.empty();
        }
        return Optional.of(observed.getHolderIdentity());
    }

    @Override public void create(KubernetesClient client, LeaderElectionRecord record) {
        lock.create(client, record);
        written(record);
    }

    /**
     * Writes the record. fabric8's release names no holder, and a merge patch that names none leaves the holder as it was:
     * a released Lease would go on naming this replica. A release is written with an empty holder instead, which is what
     * it means (and what other Kubernetes clients write).
     */
    @Override public void update(KubernetesClient client, LeaderElectionRecord record) {
        LeaderElectionRecord written = record.getHolderIdentity() != null ? record
                : new LeaderElectionRecord("", record.getLeaseDuration(), record.getAcquireTime(), record.getRenewTime(), record.getLeaderTransitions());
        lock.update(client, written);
        written(written);
    }

    /** A write that named this replica renewed the lease; any other write (a release) gave it up. */
    private synchronized void written(LeaderElectionRecord record) {
        lastRenewal = Objects.equals(record.getHolderIdentity(), identity()) ? attemptStarted : null;
    }

    /** When the lease was last renewed by this replica, in {@link System#nanoTime()}; empty when it does not hold it. */
    synchronized OptionalLong lastRenewal() {
        return lastRenewal == null ? OptionalLong.empty() : OptionalLong.of(lastRenewal);
    }

    @Override public String identity() { return lock.identity(); }

    @Override public String describe() { return lock.describe(); }
}
