package dev.windlass.engine.alerts;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The outboxes on the status branch, by path: one for an engine without shards ({@code status/alerts.yaml}), one per
 * shard with shards ({@code status/alerts/shard-<n>.yaml}), each written only by the holder of its shard, which
 * recorded the changes its events tell of. A value.
 */
public final class Outboxes {
    public static final Outboxes EMPTY = new Outboxes(Map.of());

    private final SortedMap<String, Outbox> byPath;

    public Outboxes(Map<String, Outbox> byPath) { this.byPath = java.util.Collections.unmodifiableSortedMap(new TreeMap<>(byPath)); }

    public SortedMap<String, Outbox> byPath() { return byPath; }

    public Outbox get(String path) { return byPath.getOrDefault(path, Outbox.EMPTY); }

    /** Every delivery of every outbox, by when its event was recorded. */
    public List<Delivery> all() {
        List<Delivery> out = new ArrayList<>();
        byPath.values().forEach(o -> out.addAll(o.all()));
        out.sort(Comparator.comparing(d -> d.event().at()));
        return out;
    }

    /** The pending deliveries of the outboxes at {@code paths}, in the order recorded. */
    public List<Delivery> pending(Set<String> paths) {
        List<Delivery> out = new ArrayList<>();
        for (String p : paths) out.addAll(get(p).pending());
        return out;
    }

    /** With each of {@code finished} applied to the outboxes at {@code paths} (where it was recorded pending). */
    public Outboxes applying(List<Delivery> finished, Set<String> paths) {
        if (finished.isEmpty()) return this;
        Map<String, Outbox> next = new TreeMap<>(byPath);
        for (String p : paths) next.put(p, get(p).applying(finished));
        return new Outboxes(next);
    }

    /** With {@code fresh} added to the outbox at {@code path}. */
    public Outboxes adding(String path, List<Delivery> fresh) {
        if (fresh.isEmpty()) return this;
        Map<String, Outbox> next = new TreeMap<>(byPath);
        next.put(path, get(path).adding(fresh));
        return new Outboxes(next);
    }

    @Override public boolean equals(Object o) { return o instanceof Outboxes other && other.byPath.equals(byPath); }

    @Override public int hashCode() { return byPath.hashCode(); }
}
