package dev.windlass.engine.alerts;

import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.LinkedBlockingQueue;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sends deliveries off the pass: one worker thread and one bounded queue per provider, in the order recorded. A provider
 * that hangs or fails holds only its own queue; {@link #offer} never blocks, so passes never wait on a provider. What a
 * worker finished is collected ({@link #drainFinished}) by whoever records it on the status branch.
 */
public final class AlertDelivery implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(AlertDelivery.class);

    private final Sender sender;
    private final DeliverySettings settings;
    private final Clock clock;
    private final Map<String, Lane> lanes = new ConcurrentHashMap<>();
    private final ConcurrentLinkedQueue<Delivery> finished = new ConcurrentLinkedQueue<>();
    /** Deliveries queued, in flight or finished-but-not-yet-recorded in this process: never queued twice. */
    private final Set<String> handled = ConcurrentHashMap.newKeySet();
    private volatile Map<String, Endpoint> endpoints = Map.of();
    private volatile Runnable onFinished = () -> {};
    private volatile boolean closed;

    public AlertDelivery(Sender sender, DeliverySettings settings, Clock clock) {
        this.sender = sender;
        this.settings = settings;
        this.clock = clock;
    }

    /** The providers as the last pass checked them; a delivery to one not here is given up. */
    public void use(Map<String, Endpoint> checked) { this.endpoints = Map.copyOf(checked); }

    /** Told each time a worker finishes a delivery (on the worker's thread: it must return at once). */
    public void onFinished(Runnable listener) { this.onFinished = listener == null ? () -> {} : listener; }

    /**
     * Queues every delivery of {@code pending} not queued yet; the recorded outbox's pending deliveries, after what
     * {@link #drainFinished} gave was recorded. One that does not fit its queue stays pending and is offered again.
     */
    public void offer(List<Delivery> pending) {
        if (closed) return;
        Set<String> keys = new java.util.HashSet<>();
        for (Delivery d : pending) keys.add(d.key());
        handled.retainAll(keys);
        for (Delivery d : pending) {
            if (!handled.add(d.key())) continue;
            if (!lane(d.provider()).queue.offer(d)) handled.remove(d.key());
        }
    }

    /** The deliveries finished since the last call: to be recorded. */
    public List<Delivery> drainFinished() {
        List<Delivery> out = new ArrayList<>();
        for (Delivery d; (d = finished.poll()) != null; ) out.add(d);
        return out;
    }

    /** Gives back what {@link #drainFinished} returned when it could not be recorded: the next record has it. */
    public void unrecorded(List<Delivery> drained) { finished.addAll(drained); }

    /** How many deliveries wait in {@code provider}'s queue or are being sent now. */
    public int waiting(String provider) {
        Lane l = lanes.get(provider);
        return l == null ? 0 : l.queue.size() + (l.busy ? 1 : 0);
    }

    private Lane lane(String provider) {
        return lanes.computeIfAbsent(provider, p -> {
            Lane l = new Lane(p, new LinkedBlockingQueue<>(settings.queueCapacity()));
            l.thread.start();
            return l;
        });
    }

    @Override public void close() {
        closed = true;
        lanes.values().forEach(l -> l.thread.interrupt());
        for (Lane l : lanes.values()) {
            try {
                l.thread.join(2000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    private final class Lane {
        final String provider;
        final LinkedBlockingQueue<Delivery> queue;
        final Thread thread;
        volatile boolean busy;

        Lane(String provider, LinkedBlockingQueue<Delivery> queue) {
            this.provider = provider;
            this.queue = queue;
            this.thread = new Thread(this::run, "alerts-" + provider);
            this.thread.setDaemon(true);
        }

        void run() {
            while (!closed) {
                Delivery d;
                try {
                    d = queue.take();
                } catch (InterruptedException e) {
                    return;
                }
                busy = true;
                try {
                    Delivery done = deliver(d);
                    if (done == null) return;  // closed mid-way: still pending, the next engine sends it
                    finished.add(done);
                    onFinished.run();
                } finally {
                    busy = false;
                }
            }
        }

        /** The delivery finished (Delivered or Failed), or null when the engine closed before. */
        private Delivery deliver(Delivery d) {
            String why = "";
            for (int tried = 1; ; tried++) {
                if (closed) return null;
                Endpoint to = endpoints.get(provider);
                if (to == null) return d.finished(Delivery.State.Failed, tried - 1, "provider " + provider + " is no longer declared or was refused", clock.instant());
                Sender.Outcome outcome = sender.send(to, d);
                if (outcome instanceof Sender.Outcome.Sent) {
                    log.info("alert {} {} delivered to {}", d.event().kind(), d.event().id(), provider);
                    return d.finished(Delivery.State.Delivered, tried, "", clock.instant());
                }
                if (outcome instanceof Sender.Outcome.Refused r) {
                    log.warn("alert {} {} refused by {}: {}", d.event().kind(), d.event().id(), provider, r.why());
                    return d.finished(Delivery.State.Failed, tried, r.why(), clock.instant());
                }
                why = ((Sender.Outcome.TryAgain) outcome).why();
                if (tried >= settings.maxAttempts()) {
                    log.warn("alert {} {} to {}: gave up after {} tries: {}", d.event().kind(), d.event().id(), provider, tried, why);
                    return d.finished(Delivery.State.Failed, tried, "gave up after " + tried + " tries: " + why, clock.instant());
                }
                log.info("alert {} {} to {}: {}, trying again in {}", d.event().kind(), d.event().id(), provider, why, settings.backoff(tried));
                try {
                    Thread.sleep(settings.backoff(tried).toMillis());
                } catch (InterruptedException e) {
                    return null;
                }
            }
        }
    }
}
