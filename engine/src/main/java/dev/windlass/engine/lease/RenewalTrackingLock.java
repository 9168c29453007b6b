package dev.windlass.engine.lease;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.extended.leaderelection.resourcelock.LeaderElectionRecord;
import io.fabric8.kubernetes.client.extended.leaderelection.resourcelock.Lock;
import java.util.Objects;
import java.util.OptionalLong;

/**
 * fabric8's lock, plus when this replica last renewed it, on the monotonic clock ({@link System#nanoTime()}). The
 * elector reads the lease ({@link #get}) and then writes it with itself as holder ({@link #create} or {@link #update});
 * the renewal counts from the moment the read began, which is no earlier than the renew time the elector wrote, so
 * the holder's idea of its lease never outlasts what the others see.
 */
final class RenewalTrackingLock implements Lock {

    private final Lock lock;
    private final Runnable read;
    private long attemptStarted;            // guarded by this: when the elector's current attempt began
    private Long lastRenewal;               // guarded by this: null when this replica does not hold the lease

    /** @param read runs after each read of the lease that the API server answered */
    RenewalTrackingLock(Lock lock, Runnable read) {
        this.lock = lock;
        this.read = read;
    }

    @Override public LeaderElectionRecord get(KubernetesClient client) {
        synchronized (this) {
            attemptStarted = System.nanoTime();
        }
        LeaderElectionRecord record = lock.get(client);
        read.run();
        return record;
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
