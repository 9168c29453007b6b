package dev.windlass.engine.alerts;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The deliveries recorded on the status branch, oldest first: every pending one, and the newest {@value #FINISHED_KEPT}
 * finished ones (what the dashboard shows). A value; the reconciler keeps the one it last recorded.
 */
public final class Outbox {
    public static final int FINISHED_KEPT = 200;
    public static final Outbox EMPTY = new Outbox(List.of());

    private final List<Delivery> deliveries;

    public Outbox(List<Delivery> deliveries) {
        Map<String, Delivery> byKey = new LinkedHashMap<>();
        for (Delivery d : deliveries) byKey.put(d.key(), d);
        List<Delivery> all = new ArrayList<>(byKey.values());
        long finished = all.stream().filter(d -> d.state() != Delivery.State.Pending).count();
        List<Delivery> kept = new ArrayList<>();
        for (Delivery d : all) {
            if (d.state() != Delivery.State.Pending && finished > FINISHED_KEPT) {
                finished--;
                continue;
            }
            kept.add(d);
        }
        this.deliveries = List.copyOf(kept);
    }

    public List<Delivery> all() { return deliveries; }

    public List<Delivery> pending() { return deliveries.stream().filter(d -> d.state() == Delivery.State.Pending).toList(); }

    public boolean isEmpty() { return deliveries.isEmpty(); }

    /** With {@code fresh} added at the end (one already here is kept as it is: an event is recorded once). */
    public Outbox adding(List<Delivery> fresh) {
        if (fresh.isEmpty()) return this;
        Map<String, Delivery> byKey = new LinkedHashMap<>();
        for (Delivery d : deliveries) byKey.put(d.key(), d);
        for (Delivery d : fresh) byKey.putIfAbsent(d.key(), d);
        return new Outbox(new ArrayList<>(byKey.values()));
    }

    /** With each of {@code finished} in place of the pending delivery it finishes; one no longer here is dropped. */
    public Outbox applying(List<Delivery> finished) {
        if (finished.isEmpty()) return this;
        Map<String, Delivery> byKey = new LinkedHashMap<>();
        for (Delivery d : deliveries) byKey.put(d.key(), d);
        for (Delivery f : finished) {
            Delivery was = byKey.get(f.key());
            if (was != null && was.state() == Delivery.State.Pending) byKey.put(f.key(), f);
        }
        return new Outbox(new ArrayList<>(byKey.values()));
    }

    @Override public boolean equals(Object o) { return o instanceof Outbox other && other.deliveries.equals(deliveries); }

    @Override public int hashCode() { return deliveries.hashCode(); }
}
