package dev.windlass.engine.lease;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.extended.leaderelection.resourcelock.LeaderElectionRecord;
import io.fabric8.kubernetes.client.extended.leaderelection.resourcelock.Lock;
import java.time.Clock;
import java.time.Duration;
import java.time.ZonedDateTime;
import java.util.Objects;
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
 */
final class RenewalTrackingLock implements Lock {

    private final Lock lock;
    private final Runnable read;
    private final LongSupplier nanos;
    private final Clock wall;
    private long attemptStarted;            // guarded by this: when the elector's current attempt began
    private Long lastRenewal;               // guarded by this: null when this replica does not hold the lease
    private LeaderElectionRecord observed;  // guarded by this: the record as last read from the server
    private long observedSince;             // guarded by this: when this replica first read that record, unchanged since

    /** @param read runs after each read of the lease that the API server answered */
    RenewalTrackingLock(Lock lock, Runnable read) {
        this(lock, read, System::nanoTime, Clock.systemUTC());
    }

    /**
     * @param nanos the monotonic clock ({@link System#nanoTime()})
     * @param wall  the wall clock the elector compares renew times with (the system's, in UTC)
     */
    RenewalTrackingLock(Lock lock, Runnable read, LongSupplier nanos, Clock wall) {
        this.lock = lock;
        this.read = read;
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

    /** The record to hand the elector: for a lease held by another, its renew time as this replica observed it. */
    private synchronized LeaderElectionRecord observe(LeaderElectionRecord record) {
        long now = nanos.getAsLong();
        if (!Objects.equals(record, observed)) {
            observed = record;
            observedSince = now;
        }
        if (record == null || record.getHolderIdentity() == null || record.getHolderIdentity().isEmpty()
                || record.getHolderIdentity().equals(identity())) {
            return record;  // free, or this replica's own: the elector takes or renews it, and reads no renew time
        }
        ZonedDateTime seen = ZonedDateTime.now(wall).minus(Duration.ofNanos(now - observedSince));
        return new LeaderElectionRecord(record.getHolderIdentity(), record.getLeaseDuration(), record.getAcquireTime(), seen,
                record.getLeaderTransitions());
    }

    @Override public void create(KubernetesClient client, LeaderElectionRecord record) {
        lock.create(client, record);
        written(record);
    }

    @Override public void update(KubernetesClient client, LeaderElectionRecord record) {
        lock.update(client, record);
        written(record);
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
