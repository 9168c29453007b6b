package dev.windlass.git;

import java.io.IOException;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.locks.ReentrantLock;
import org.eclipse.jgit.errors.NotSupportedException;
import org.eclipse.jgit.errors.TransportException;
import org.eclipse.jgit.lib.NullProgressMonitor;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.Ref;
import org.eclipse.jgit.lib.RefUpdate;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.transport.FetchConnection;
import org.eclipse.jgit.transport.FetchResult;
import org.eclipse.jgit.transport.PackLock;
import org.eclipse.jgit.transport.RefSpec;
import org.eclipse.jgit.transport.RemoteRefUpdate;
import org.eclipse.jgit.transport.TagOpt;
import org.eclipse.jgit.transport.TrackingRefUpdate;
import org.eclipse.jgit.transport.Transport;
import org.eclipse.jgit.transport.TransportHttp;
import org.eclipse.jgit.transport.http.JDKHttpConnectionFactory;

/**
 * The networked half of a {@link Mirror}. Everything that moves local refs holds one lock: two fetches racing on the
 * same ref would fail each other with lock errors. Pushes only read local objects and need no lock.
 */
final class RemoteSync {

    // A hung remote must not stall the poll loop forever.
    private static final int TIMEOUT_SECONDS = 120;
    private static final Set<RefUpdate.Result> APPLIED = EnumSet.of(
            RefUpdate.Result.NEW, RefUpdate.Result.FORCED, RefUpdate.Result.FAST_FORWARD, RefUpdate.Result.NO_CHANGE);

    // JGit's own HTTP client (its default); each operation wraps it to note the statuses the server answered.
    private static final JDKHttpConnectionFactory HTTP = new JDKHttpConnectionFactory();

    private final Repository repository;
    private final GitRemote remote;
    private final ReentrantLock lock = new ReentrantLock();
    private final java.util.concurrent.atomic.AtomicLong roundTrips = new java.util.concurrent.atomic.AtomicLong();
    private final java.util.concurrent.atomic.AtomicLong objectsFetched = new java.util.concurrent.atomic.AtomicLong();

    RemoteSync(Repository repository, GitRemote remote) {
        this.repository = repository;
        this.remote = remote;
    }

    /** How many fetches so far may have brought objects (those that moved a ref): what {@link Housekeeping} weighs again after. */
    long objectsFetched() { return objectsFetched.get(); }

    /** Held by every update of local refs; {@link Housekeeping} holds it while compacting. */
    java.util.concurrent.locks.Lock refLock() { return lock; }

    FetchOutcome fetchAll() throws IOException {
        lock.lock();
        HttpStatusRecorder statuses = new HttpStatusRecorder(HTTP);
        try (Transport transport = open(statuses)) {
            transport.setRemoveDeletedRefs(true);
            transport.setTagOpt(TagOpt.NO_TAGS);
            FetchResult result = transport.fetch(NullProgressMonitor.INSTANCE, Mirror.FETCH_SPECS);
            if (!result.getTrackingRefUpdates().isEmpty()) objectsFetched.incrementAndGet();
            var changes = new TreeMap<String, RefChange>();
            for (TrackingRefUpdate update : result.getTrackingRefUpdates()) {
                if (!APPLIED.contains(update.getResult())) {
                    throw new IOException("could not update " + update.getLocalName() + ": " + update.getResult());
                }
                Optional<String> before = present(update.getOldObjectId());
                Optional<String> after = present(update.getNewObjectId());
                if (!before.equals(after)) {
                    changes.put(update.getLocalName(), new RefChange(update.getLocalName(), before, after));
                }
            }
            return new FetchOutcome(changes);
        } catch (TransportException | NotSupportedException e) {
            throw new RemoteAccessException("fetch from", remote, e, statuses.lastStatus());
        } finally {
            lock.unlock();
        }
    }

    /**
     * Makes the local {@code ref} equal to the remote one, fetching only that ref, and returns its tip. A fetch
     * refspec naming a ref the remote lacks is an error in JGit, so this reads the advertisement on the same
     * connection first and deletes the local copy when the remote has none.
     */
    Optional<ObjectId> fetchRef(String ref) throws IOException {
        lock.lock();
        HttpStatusRecorder statuses = new HttpStatusRecorder(HTTP);
        try (Transport transport = open(statuses);
                FetchConnection connection = transport.openFetch(List.of(new RefSpec(ref)))) {
            Ref advertised = connection.getRef(ref);
            if (advertised == null) {
                deleteLocal(ref);
                return Optional.empty();
            }
            ObjectId tip = advertised.getObjectId();
            if (!repository.getObjectDatabase().has(tip)) {
                objectsFetched.incrementAndGet();
                connection.fetch(NullProgressMonitor.INSTANCE, List.of(advertised), Set.of());
                for (PackLock packLock : connection.getPackLocks()) packLock.unlock();
            }
            setLocal(ref, tip);
            return Optional.of(tip);
        } catch (TransportException | NotSupportedException e) {
            throw new RemoteAccessException("fetch from", remote, e, statuses.lastStatus());
        } finally {
            lock.unlock();
        }
    }

    /**
     * Pushes {@code commit} to {@code ref} only if the remote ref is still {@code expected} (absent when empty).
     * JGit checks the lease against the advertisement and the server re-checks it under its ref lock. An origin on
     * this machine first loses a lock on the ref that a writer left behind ({@link StaleRefLock}).
     */
    RemoteRefUpdate pushWithLease(String ref, Optional<ObjectId> expected, ObjectId commit) throws IOException {
        return pushWithLease(ref, expected, commit, false);
    }

    /** As {@link #pushWithLease(String, Optional, ObjectId)}; {@code rewrite} allows a commit that does not descend from the lease. */
    RemoteRefUpdate pushWithLease(String ref, Optional<ObjectId> expected, ObjectId commit, boolean rewrite) throws IOException {
        StaleRefLock.clear(remote.uri(), ref, java.time.Instant.now());
        HttpStatusRecorder statuses = new HttpStatusRecorder(HTTP);
        try (Transport transport = open(statuses)) {
            RemoteRefUpdate update = new RemoteRefUpdate(
                    repository, null, commit, ref, rewrite, null, expected.orElse(ObjectId.zeroId()));
            return transport.push(NullProgressMonitor.INSTANCE, List.of(update)).getRemoteUpdate(ref);
        } catch (TransportException | NotSupportedException e) {
            throw new RemoteAccessException("push to", remote, e, statuses.lastStatus());
        }
    }

    /** Records a ref we just pushed, so local reads see it without another fetch. */
    void recordPushed(String ref, ObjectId commit) throws IOException {
        lock.lock();
        try {
            setLocal(ref, commit);
        } finally {
            lock.unlock();
        }
    }

    /** Over HTTP, {@code statuses} notes what the server answered, so a failure is told apart by its status. */
    /** Connections opened to the remote so far (fetches, ref reads and pushes): each is at least one round trip. */
    long roundTrips() { return roundTrips.get(); }

    private Transport open(HttpStatusRecorder statuses) throws IOException {
        roundTrips.incrementAndGet();
        Transport transport = Transport.open(repository, remote.uri());
        if (transport instanceof TransportHttp http) http.setHttpConnectionFactory(statuses);
        // Set even when null: a JVM-wide default provider must never supply credentials we were not given.
        transport.setCredentialsProvider(remote.credentialsProvider());
        transport.setTimeout(TIMEOUT_SECONDS);
        return transport;
    }

    private void setLocal(String ref, ObjectId id) throws IOException {
        RefUpdate update = repository.updateRef(ref);
        update.setNewObjectId(id);
        update.setForceUpdate(true);
        RefUpdate.Result result = update.update();
        if (!APPLIED.contains(result)) throw new IOException("could not set " + ref + " to " + id.name() + ": " + result);
    }

    private void deleteLocal(String ref) throws IOException {
        if (repository.exactRef(ref) == null) return;
        RefUpdate update = repository.updateRef(ref);
        update.setForceUpdate(true);
        RefUpdate.Result result = update.delete();
        if (!APPLIED.contains(result)) throw new IOException("could not delete " + ref + ": " + result);
    }

    private static Optional<String> present(ObjectId id) {
        return id == null || id.equals(ObjectId.zeroId()) ? Optional.empty() : Optional.of(id.name());
    }
}
