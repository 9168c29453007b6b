package dev.windlass.applier.reads;

import io.fabric8.kubernetes.api.model.APIResource;
import io.fabric8.kubernetes.api.model.APIResourceList;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads one cluster from watches, so that a pass with nothing new asks the API server nothing for them.
 *
 * <p>The first read of a query LISTs and opens a watch on it. A later read is answered from the watch only when
 * the watch is up and was last proved current after the latest write of its kind: since then the cache matched a
 * fresh LIST object for object, resource version for resource version, and no write of that kind by this client has
 * been sent or answered ({@link WriteMarks}). Otherwise the read LISTs the objects' metadata only (names and resource
 * versions) and compares: a match proves the cache current again, and the cache answers. When they differ, the read
 * LISTs the whole objects, returns what that LIST said, and compares again. So a pass always sees the engine's own
 * writes of the pass before, and a cache that fell behind (a dropped watch, a missed event) costs a LIST, never a
 * wrong answer. What others change reaches the cache
 * through the watch, usually within milliseconds.
 *
 * <p>A query whose first LIST finds nothing (a new cluster, or a kind new to it) is not watched at once. The pass that
 * read it is about to create what it lists: a watch opened now would bring every one of those creates back as an
 * event, and prove nothing the next pass does not LIST again anyway (its kind was written). So a first sync sends its
 * writes without the events coming back. The watch opens at the query's first read after a write of its kind, on a
 * cluster that holds what the sync made, from one LIST; or at a read whose LIST finds something; or, for a kind that
 * stays empty and unwritten, at the read after {@value #PUT_OFF_READS} empty ones. {@link #awaitCurrent} opens such
 * watches at once.
 *
 * <p>A watch is trusted for {@link #PROOF_LASTS} after its last proof at most: a connection that died without the
 * client noticing (a half-open TCP connection stays "watching") would otherwise hide changes until the server ends
 * the watch. So a quiet fleet still LISTs each query once in that time. A watch not read for {@link #IDLE} (its
 * kind left the repo) is closed.
 */
public final class WatchCache implements ClusterReads {

    private static final Logger log = LoggerFactory.getLogger(WatchCache.class);

    /** How long a watch nobody reads stays open. */
    static final Duration IDLE = Duration.ofMinutes(10);
    /** How long a watch proven current is believed without another LIST, writes or not. */
    static final Duration PROOF_LASTS = Duration.ofMinutes(5);
    private static final long WAIT_FOR_DELIVERY_MILLIS = 100;
    /** Empty reads a query stays unwatched for while nothing of its kind is written. */
    static final int PUT_OFF_READS = 2;

    /** A query not watched yet: its first LIST found nothing (see the class comment). */
    private record PutOff(String resource, long writes, int reads, long lastRead) {}

    /** One query's watch and what it holds. */
    private static final class Watched {
        final SharedIndexInformer<GenericKubernetesResource> informer;
        final CachedBodies bodies;
        final String resource;           // group/plural whose writes make this unproven; null: any write
        volatile long provenAt = -1;     // the write count when the cache last matched a LIST
        volatile long provenWhen;        // and when (nanoTime)
        volatile long lastRead;

        Watched(SharedIndexInformer<GenericKubernetesResource> informer, CachedBodies bodies, String resource, long now) {
            this.informer = informer;
            this.bodies = bodies;
            this.resource = resource;
            this.lastRead = now;
        }

        boolean up() { return informer.isRunning() && informer.isWatching() && informer.hasSynced(); }

        boolean current(WriteMarks marks, long now) {
            return provenAt == writes(marks) && now - provenWhen < PROOF_LASTS.toNanos() && up();
        }

        long writes(WriteMarks marks) { return resource == null ? marks.count() : marks.count(resource); }
    }

    private final KubernetesClient client;
    private final WatchClient watches;
    private final WriteMarks writes;
    private final LongSupplier nanoTime;
    private final Map<Query, Watched> watched = new ConcurrentHashMap<>();
    private final Map<Query, PutOff> unwatched = new ConcurrentHashMap<>();
    private final Map<String, Map<String, String>> pluralsByKind = new ConcurrentHashMap<>();

    /** @param writes the marks installed in {@code client}'s HTTP stack */
    public WatchCache(KubernetesClient client, WriteMarks writes) { this(client, writes, System::nanoTime); }

    /** @param nanoTime the monotonic clock proofs and idleness are timed by */
    WatchCache(KubernetesClient client, WriteMarks writes, LongSupplier nanoTime) {
        this.client = client;
        this.watches = new WatchClient(client);
        this.writes = writes;
        this.nanoTime = nanoTime;
    }

    @Override public List<Map<String, Object>> read(Query query) {
        closeIdle();
        Watched w = watched.get(query);
        if (w != null) {
            w.lastRead = nanoTime.getAsLong();
            if (w.current(writes, w.lastRead) || provenByVersions(query, w)) return w.bodies.bodies();
            return listAndProve(query);
        }
        PutOff off = unwatched.remove(query);
        String resource = off != null ? off.resource() : resourceOf(query);
        long before = writeCount(resource);
        if (off != null && (before != off.writes() || off.reads() >= PUT_OFF_READS)) return listAndProve(query);
        List<Map<String, Object>> listed = Listing.list(client, query);
        if (!listed.isEmpty()) return prove(query, resource, before, listed);
        unwatched.put(query, off == null ? new PutOff(resource, before, 1, nanoTime.getAsLong())
                : new PutOff(resource, off.writes(), off.reads() + 1, nanoTime.getAsLong()));
        return listed;
    }

    @Override public void renewProofs() {
        long now = nanoTime.getAsLong();
        for (var e : watched.entrySet()) {
            Watched w = e.getValue();
            if (w.provenAt == w.writes(writes) && now - w.provenWhen >= PROOF_LASTS.toNanos()) provenByVersions(e.getKey(), w);
        }
    }

    /** Whether {@code query} would be answered from its watch now, without asking the cluster. */
    public boolean answersFromWatch(Query query) {
        Watched w = watched.get(query);
        return w != null && w.current(writes, nanoTime.getAsLong());
    }

    @Override public boolean awaitCurrent(Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();  // a real wait, whatever clock proofs run on
        for (Query query : List.copyOf(unwatched.keySet())) {
            PutOff off = unwatched.remove(query);
            if (off == null) continue;
            try {
                listAndProve(query);
            } catch (KubernetesClientException e) {
                // Nothing can be proven of a cluster that does not answer: the query stays put off, as it was.
                unwatched.put(query, off);
                return true;
            }
        }
        for (Query query : List.copyOf(watched.keySet())) {
            while (true) {
                // Every query is compared with a LIST, proven or not: a proof says nothing of changes made behind
                // the engine's back since, which is what callers of this wait for.
                Watched w = watched.get(query);
                if (w == null) break;
                long seen = w.bodies.deliveries();
                try {
                    listAndProve(query);
                } catch (KubernetesClientException e) {
                    // Nothing can be proven of a cluster that does not answer; a read now asks it and meets the same.
                    return true;
                }
                if (answersFromWatch(query)) break;
                if (System.nanoTime() > deadline) return false;
                try {
                    // The watch is behind the LIST: wait for it to deliver (bounded, as syncing delivers nothing
                    // when there is nothing to list), then compare again.
                    w.bodies.awaitDeliveryAfter(seen, WAIT_FOR_DELIVERY_MILLIS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return false;
                }
            }
        }
        return true;
    }

    /**
     * Proves a running watch current with a LIST of its objects' metadata only ({@link Listing#versions}): when it holds
     * exactly those objects at those resource versions, it holds what a whole LIST would return. A quiet fleet's watches
     * are proven so every {@link #PROOF_LASTS}, and a pass after writes whose watches caught up reads no body again.
     * False when they differ, or the LIST failed: the whole LIST that follows answers the read and says what is wrong.
     */
    private boolean provenByVersions(Query query, Watched w) {
        if (!w.up()) return false;
        long before = writeCount(w.resource);
        Map<String, String> versions;
        try {
            versions = Listing.versions(client, query);
        } catch (KubernetesClientException e) {
            log.debug("no proof of {} by its objects' versions: {}", query, e.toString());
            return false;
        }
        if (!w.up() || !w.bodies.holdsExactly(versions)) return false;
        w.provenAt = before;
        w.provenWhen = nanoTime.getAsLong();
        return true;
    }

    /** LISTs, then proves the watch current when it holds the same, or opens one when there is none (or it stopped). */
    private List<Map<String, Object>> listAndProve(Query query) {
        Watched existing = watched.get(query);
        String resource = existing != null ? existing.resource : resourceOf(query);
        long before = writeCount(resource);
        return prove(query, resource, before, existing == null ? Listing.list(client, query) : Listing.list(client, query, existing.bodies::heldAt));
    }

    private long writeCount(String resource) { return resource == null ? writes.count() : writes.count(resource); }

    /**
     * With what a LIST just returned ({@code before}: the write count taken before it was sent): proves the watch
     * current when it holds the same, or opens one when there is none (or it stopped). Returns what the LIST said.
     */
    private List<Map<String, Object>> prove(Query query, String resource, long before, List<Map<String, Object>> listed) {
        Watched updated = watched.compute(query, (q, w) -> {
            if (w != null && w.informer.isRunning()) {
                if (w.up() && w.bodies.matches(listed)) {
                    w.provenAt = before;
                    w.provenWhen = nanoTime.getAsLong();
                } else {
                    w.provenAt = -1;   // behind the LIST: not to be read from until it has caught up
                }
                return w;
            }
            if (w != null) w.informer.stop();
            return open(q, resource);
        });
        return updated.bodies.sameBodies(listed);
    }

    /**
     * The {@code group/plural} the API server serves the query's kind as, from its discovery document (asked once
     * per API version); null when it cannot be told, and then any write to the cluster makes the watch unproven.
     */
    private String resourceOf(Query query) {
        Map<String, String> plurals = pluralsByKind.computeIfAbsent(query.apiVersion(), this::discover);
        String plural = plurals.get(query.kind());
        if (plural == null) return null;
        int slash = query.apiVersion().indexOf('/');
        return (slash < 0 ? "" : query.apiVersion().substring(0, slash)) + "/" + plural;
    }

    private Map<String, String> discover(String apiVersion) {
        try {
            APIResourceList list = client.getApiResources(apiVersion);
            Map<String, String> plurals = new ConcurrentHashMap<>();
            if (list != null && list.getResources() != null) {
                for (APIResource r : list.getResources()) {
                    if (r.getName() != null && !r.getName().contains("/") && r.getKind() != null) plurals.putIfAbsent(r.getKind(), r.getName());
                }
            }
            return plurals;
        } catch (KubernetesClientException e) {
            log.debug("no discovery for {}: {}", apiVersion, e.toString());
            return Map.of();
        }
    }

    private Watched open(Query query, String resource) {
        CachedBodies bodies = new CachedBodies(client.getKubernetesSerialization(), query);
        SharedIndexInformer<GenericKubernetesResource> informer = watches.operation(query).withLimit(Listing.PAGE).runnableInformer(0);
        informer.itemStore(bodies);
        informer.start().whenComplete((done, failed) -> {
            if (failed != null) log.debug("watch of {} did not start: {}", query, failed.toString());
        });
        log.debug("watching {}", query);
        return new Watched(informer, bodies, resource, nanoTime.getAsLong());
    }

    private void closeIdle() {
        long now = nanoTime.getAsLong();
        unwatched.values().removeIf(off -> now - off.lastRead() > IDLE.toNanos());
        watched.entrySet().removeIf(e -> {
            boolean idle = now - e.getValue().lastRead > IDLE.toNanos();
            if (idle) {
                e.getValue().informer.stop();
                log.debug("closed the watch of {}: not read for {}", e.getKey(), IDLE);
            }
            return idle;
        });
    }

    /**
     * Null while a query is put off (its reads LIST) or a watch would not answer a read now (down, or not proven current
     * since the latest write of its kind, or its proof too old); else what each watch has delivered, and the writes.
     */
    @Override public ReadsStamp stamp() {
        if (!unwatched.isEmpty()) return null;
        long now = nanoTime.getAsLong();
        Map<Query, Long> changes = new java.util.HashMap<>();
        for (var e : watched.entrySet()) {
            if (!e.getValue().current(writes, now)) return null;
            changes.put(e.getKey(), e.getValue().bodies.changes());
        }
        return new ReadsStamp(changes, writes.count());
    }

    /** The queries watched now. */
    public List<Query> watching() { return List.copyOf(watched.keySet()); }

    /** Stops every watch and waits (briefly) until each has let go of its connection. */
    @Override public void close() {
        List<Watched> all = List.copyOf(watched.values());
        watched.clear();
        all.forEach(w -> w.informer.stop());
        try {
            for (Watched w : all) {
                try {
                    w.informer.stopped().toCompletableFuture().get(2, java.util.concurrent.TimeUnit.SECONDS);
                } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
                    log.debug("a watch did not stop cleanly: {}", e.toString());
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
