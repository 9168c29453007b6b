package dev.windlass.git;

import java.io.IOException;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.locks.ReentrantLock;
import org.eclipse.jgit.errors.NotSupportedException;
import org.eclipse.jgit.errors.TransportException;
import org.eclipse.jgit.lib.BatchRefUpdate;
import org.eclipse.jgit.lib.NullProgressMonitor;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.Ref;
import org.eclipse.jgit.lib.RefUpdate;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.revwalk.RevWalk;
import org.eclipse.jgit.transport.FetchConnection;
import org.eclipse.jgit.transport.PackLock;
import org.eclipse.jgit.transport.ReceiveCommand;
import org.eclipse.jgit.transport.RefSpec;
import org.eclipse.jgit.transport.RemoteRefUpdate;
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

    // The fetches' transport over HTTP, kept from one to the next: setting one up reads the mirror's and the user's Git
    // configuration again, a third of an idle pass's own work. It holds no connection between requests (they take
    // theirs from the JDK's pool), so keeping it keeps none open. Dropped after anything goes wrong.
    private Kept fetching;  // guarded by lock
    // What the last fetch of every branch brought the mirror to, and how many local ref writes had been made then: while
    // the remote advertises the same refs and nothing was written since, the mirror is where that fetch left it.
    private Map<String, ObjectId> broughtTo;  // guarded by lock
    private long localWrites;  // guarded by lock
    private long localWritesAtFetch = -1;  // guarded by lock

    RemoteSync(Repository repository, GitRemote remote) {
        this.repository = repository;
        this.remote = remote;
    }

    /** How many fetches so far may have brought objects (those that moved a ref): what {@link Housekeeping} weighs again after. */
    long objectsFetched() { return objectsFetched.get(); }

    /** Held by every update of local refs; {@link Housekeeping} holds it while compacting. */
    java.util.concurrent.locks.Lock refLock() { return lock; }

    /**
     * Brings every branch and pull request head to where the remote has them, deleting those it no longer has, over one
     * connection: the remote's refs are read first, and when they are the very refs the last such fetch brought and no
     * local ref was written since, that is all (the mirror is this engine's own: only this class moves its branches and
     * pull request heads). Otherwise the objects not yet in the mirror are fetched and the refs moved in one batch.
     */
    FetchOutcome fetchAll() throws IOException {
        lock.lock();
        Kept kept = fetching;
        fetching = null;
        HttpStatusRecorder statuses = kept == null ? new HttpStatusRecorder(HTTP) : kept.statuses().startOver();
        Transport transport = null;
        try {
            transport = kept == null ? open(statuses) : prepared(kept.transport());
            FetchOutcome outcome;
            try (FetchConnection connection = transport.openFetch(Mirror.FETCH_SPECS)) {
                outcome = bringUpToDate(connection);
            }
            if (transport instanceof TransportHttp) {
                fetching = new Kept(transport, statuses);
                transport = null;
            }
            return outcome;
        } catch (TransportException | NotSupportedException e) {
            throw new RemoteAccessException("fetch from", remote, e, statuses.lastStatus());
        } finally {
            if (transport != null) transport.close();
            lock.unlock();
        }
    }

    private FetchOutcome bringUpToDate(FetchConnection connection) throws IOException {
        Map<String, ObjectId> advertised = mirrored(connection.getRefs());
        if (advertised.equals(broughtTo) && localWrites == localWritesAtFetch) return FetchOutcome.none();
        List<Ref> missing = new ArrayList<>();
        for (Ref ref : connection.getRefs()) {
            if (advertised.containsKey(ref.getName()) && !repository.getObjectDatabase().has(ref.getObjectId())) missing.add(ref);
        }
        if (!missing.isEmpty()) {
            connection.fetch(NullProgressMonitor.INSTANCE, missing, Set.of());
            for (PackLock packLock : connection.getPackLocks()) packLock.unlock();
        }
        SortedMap<String, RefChange> changes = moveLocal(advertised);
        if (!changes.isEmpty()) objectsFetched.incrementAndGet();
        broughtTo = advertised;
        localWritesAtFetch = localWrites;
        return new FetchOutcome(changes);
    }

    /**
     * The advertised refs the mirror keeps, by name: its branches and pull request heads (not tags, not symbolic refs).
     * The mirror's refspecs keep each under its own name, so these are the local refs' names too.
     */
    private static Map<String, ObjectId> mirrored(java.util.Collection<Ref> advertised) {
        Map<String, ObjectId> kept = new TreeMap<>();
        for (Ref ref : advertised) {
            if (ref.isSymbolic() || ref.getObjectId() == null) continue;
            if (Mirror.FETCH_SPECS.stream().anyMatch(spec -> spec.matchSource(ref))) kept.put(ref.getName(), ref.getObjectId());
        }
        return kept;
    }

    /** Sets every kept ref to the remote's, deleting those the remote no longer has, in one batch; what moved. */
    private SortedMap<String, RefChange> moveLocal(Map<String, ObjectId> remote) throws IOException {
        Map<String, ObjectId> local = new TreeMap<>();
        for (Ref ref : repository.getRefDatabase().getRefsByPrefix(Mirror.BRANCHES, Mirror.PULL_REQUESTS)) {
            if (!ref.isSymbolic() && ref.getObjectId() != null && Mirror.FETCH_SPECS.stream().anyMatch(spec -> spec.matchDestination(ref))) {
                local.put(ref.getName(), ref.getObjectId());
            }
        }
        BatchRefUpdate batch = repository.getRefDatabase().newBatchUpdate().setAllowNonFastForwards(true).setAtomic(false);
        SortedMap<String, RefChange> changes = new TreeMap<>();
        remote.forEach((name, id) -> {
            ObjectId before = local.get(name);
            if (id.equals(before)) return;
            batch.addCommand(new ReceiveCommand(before == null ? ObjectId.zeroId() : before, id, name,
                    before == null ? ReceiveCommand.Type.CREATE : ReceiveCommand.Type.UPDATE_NONFASTFORWARD));
            changes.put(name, new RefChange(name, present(before), present(id)));
        });
        local.forEach((name, id) -> {
            if (remote.containsKey(name)) return;
            batch.addCommand(new ReceiveCommand(id, ObjectId.zeroId(), name, ReceiveCommand.Type.DELETE));
            changes.put(name, new RefChange(name, present(id), Optional.empty()));
        });
        if (batch.getCommands().isEmpty()) return changes;
        try (RevWalk walk = new RevWalk(repository)) {
            batch.execute(walk, NullProgressMonitor.INSTANCE);
        }
        for (ReceiveCommand command : batch.getCommands()) {
            if (command.getResult() != ReceiveCommand.Result.OK) {
                throw new IOException("could not update " + command.getRefName() + ": " + command.getResult()
                        + (command.getMessage() == null ? "" : " (" + command.getMessage() + ")"));
            }
        }
        localWrites++;
        return changes;
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

    /** Lets the kept transport go. */
    void close() {
        lock.lock();
        try {
            if (fetching != null) fetching.transport().close();
            fetching = null;
        } finally {
            lock.unlock();
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

    /** Connections opened to the remote so far (fetches, ref reads and pushes): each is at least one round trip. */
    long roundTrips() { return roundTrips.get(); }

    /** Over HTTP, {@code statuses} notes what the server answered, so a failure is told apart by its status. */
    private Transport open(HttpStatusRecorder statuses) throws IOException {
        Transport transport = Transport.open(repository, remote.uri());
        if (transport instanceof TransportHttp http) http.setHttpConnectionFactory(statuses);
        return prepared(transport);
    }

    /** A transport kept for fetches, with the recorder its connections were made by (it cannot take another). */
    private record Kept(Transport transport, HttpStatusRecorder statuses) {}

    private Transport prepared(Transport transport) {
        roundTrips.incrementAndGet();
        // Set even when null: a JVM-wide default provider must never supply credentials we were not given.
        transport.setCredentialsProvider(remote.credentialsProvider());
        transport.setTimeout(TIMEOUT_SECONDS);
        return transport;
    }

    private void setLocal(String ref, ObjectId id) throws IOException {
        RefUpdate update = repository.updateRef(ref);
        update.setNewObjectId(id);
        update.setForceUpdate(true);
        localWrites++;
        RefUpdate.Result result = update.update();
        if (!APPLIED.contains(result)) throw new IOException("could not set " + ref + " to " + id.name() + ": " + result);
    }

    private void deleteLocal(String ref) throws IOException {
        if (repository.exactRef(ref) == null) return;
        RefUpdate update = repository.updateRef(ref);
        update.setForceUpdate(true);
        localWrites++;
        RefUpdate.Result result = update.delete();
        if (!APPLIED.contains(result)) throw new IOException("could not delete " + ref + ": " + result);
    }

    private static Optional<String> present(ObjectId id) {
        return id == null || id.equals(ObjectId.zeroId()) ? Optional.empty() : Optional.of(id.name());
    }
}
