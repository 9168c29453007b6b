package dev.windlass.applier.reads;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads one cluster from watches, so that a pass with nothing new asks the API server nothing for them.
 *
 * <p>The first read of a query LISTs and opens a watch on it. A later read is answered from the watch only when
 * the watch is up and was last proved current after the cluster's latest write: since then the cache matched a
 * fresh LIST object for object, resource version for resource version, and no write by this client has been sent
 * or answered ({@link WriteMarks}). Otherwise the read LISTs, returns what the LIST said, and compares: a match proves
 * the cache current again. So a pass always sees the engine's own writes of the pass before, and a cache that fell
 * behind (a dropped watch, a missed event) costs a LIST, never a wrong answer. What others change reaches the cache
 * through the watch, usually within milliseconds.
 *
 * <p>A watch not read for {@link #IDLE} (its kind left the repo) is closed.
 */
public final class WatchCache implements ClusterReads {

    private static final Logger log = LoggerFactory.getLogger(WatchCache.class);

    /** How long a watch nobody reads stays open. */
    static final Duration IDLE = Duration.ofMinutes(10);
    private static final long POLL_MILLIS = 10;

    /** One query's watch and what it holds. */
    private static final class Watched {
        final SharedIndexInformer<GenericKubernetesResource> informer;
        final CachedBodies bodies;
        volatile long provenAt = -1;     // the write count when the cache last matched a LIST
        volatile long lastRead = System.nanoTime();

        Watched(SharedIndexInformer<GenericKubernetesResource> informer, CachedBodies bodies) {
            this.informer = informer;
            this.bodies = bodies;
        }

        boolean up() { return informer.isRunning() && informer.isWatching() && informer.hasSynced(); }

        boolean current(long writes) { return provenAt == writes && up(); }
    }

    private final KubernetesClient client;
    private final WriteMarks writes;
    private final Map<Query, Watched> watched = new ConcurrentHashMap<>();

    /** @param writes the marks installed in {@code client}'s HTTP stack */
    public WatchCache(KubernetesClient client, WriteMarks writes) {
        this.client = client;
        this.writes = writes;
    }

    @Override public List<Map<String, Object>> read(Query query) {
        closeIdle();
        Watched w = watched.get(query);
        if (w != null) {
            w.lastRead = System.nanoTime();
            if (w.current(writes.count())) return w.bodies.bodies();
        }
        return listAndProve(query);
    }

    /** Whether {@code query} would be answered from its watch now, without asking the cluster. */
    public boolean answersFromWatch(Query query) {
        Watched w = watched.get(query);
        return w != null && w.current(writes.count());
    }

    @Override public boolean awaitCurrent(Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        for (Query query : List.copyOf(watched.keySet())) {
            while (true) {
                Watched w = watched.get(query);
                if (w == null || w.current(writes.count())) break;
                try {
                    listAndProve(query);
                } catch (KubernetesClientException e) {
                    // Nothing can be proven of a cluster that does not answer; a read now asks it and meets the same.
                    return true;
                }
                if (answersFromWatch(query)) break;
                if (System.nanoTime() > deadline) return false;
                try {
                    Thread.sleep(POLL_MILLIS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return false;
                }
            }
        }
        return true;
    }

    /** LISTs, then proves the watch current when it holds the same, or opens one when there is none (or it stopped). */
    private List<Map<String, Object>> listAndProve(Query query) {
        long before = writes.count();
        List<Map<String, Object>> listed = Listing.list(client, query);
        watched.compute(query, (q, w) -> {
            if (w != null && w.informer.isRunning()) {
                if (w.up() && w.bodies.matches(listed)) w.provenAt = before;
                return w;
            }
            if (w != null) w.informer.stop();
            return open(q);
        });
        return listed;
    }

    private Watched open(Query query) {
        CachedBodies bodies = new CachedBodies(client.getKubernetesSerialization(), query);
        SharedIndexInformer<GenericKubernetesResource> informer = Listing.operation(client, query).runnableInformer(0);
        informer.itemStore(bodies);
        informer.start().whenComplete((done, failed) -> {
            if (failed != null) log.debug("watch of {} did not start: {}", query, failed.toString());
        });
        log.debug("watching {}", query);
        return new Watched(informer, bodies);
    }

    private void closeIdle() {
        long now = System.nanoTime();
        watched.entrySet().removeIf(e -> {
            boolean idle = now - e.getValue().lastRead > IDLE.toNanos();
            if (idle) {
                e.getValue().informer.stop();
                log.debug("closed the watch of {}: not read for {}", e.getKey(), IDLE);
            }
            return idle;
        });
    }

    /** The queries watched now. */
    public List<Query> watching() { return List.copyOf(watched.keySet()); }

    /** Stops every watch and waits (briefly) until each has let go of its connection. */
    @Override public void close() {
        List<Watched> all = List.copyOf(watched.values());
        watched.clear();
        all.forEach(w -> w.informer.stop());
        for (Watched w : all) {
            try {
                w.informer.stopped().toCompletableFuture().get(2, java.util.concurrent.TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
                log.debug("a watch did not stop cleanly: {}", e.toString());
            }
        }
    }
}
