package dev.windlass.policy.plan;

import dev.windlass.policy.state.Health;
import dev.windlass.policy.state.TargetStatus;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A pass's health transitions, gathered by application, health and message so that one event covers every cluster
 * ("web healthy on eu-1, eu-2"). A target just written to is expected to progress: no event.
 */
final class HealthLines {
    private final Map<Line, List<String>> lines = new TreeMap<>();

    /** Adds the target's transition from {@code prev} to {@code next}, if it is worth an event. */
    void add(String app, TargetStatus prev, TargetStatus next, boolean written, boolean waiting) {
        Health before = prev == null ? null : prev.health();
        Health now = next.health();
        boolean sameHealth = before == now;
        if (sameHealth && (now == Health.Healthy || prev.message().equals(next.message()))) return;
        if (now == Health.Progressing && written) return;
        if (before == null && now != Health.Healthy && now != Health.Degraded && !waiting) return;
        String message = now == Health.Healthy ? "" : next.message();
        lines.computeIfAbsent(new Line(app, now, message, waiting), k -> new ArrayList<>()).add(next.cluster());
    }

    /** One event per application, health and message, in that order. */
    List<Event> events() {
        List<Event> out = new ArrayList<>();
        lines.forEach((line, clusters) -> out.add(new Event.HealthChanged(line.app(), line.health(), clusters, line.message(), line.waiting())));
        return out;
    }

    /** The clusters where {@code app} reached {@code health} with one message. */
    private record Line(String app, Health health, String message, boolean waiting) implements Comparable<Line> {
        private static final Comparator<Line> ORDER = Comparator.comparing(Line::app)
                .thenComparing(l -> l.health().name()).thenComparing(Line::message).thenComparing(Line::waiting);

        @Override public int compareTo(Line o) { return ORDER.compare(this, o); }
    }
}
