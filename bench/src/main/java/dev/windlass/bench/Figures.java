package dev.windlass.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Named figures from one or more runs, in the order first measured; each figure keeps every run's value. A name that
 * starts with spaces belongs to the last figure added without them (so "  API writes" of the initial sync and of
 * the naive loop are two figures).
 */
final class Figures {
    /** How a figure is printed. */
    enum Unit { MS, COUNT, PER_SECOND, BYTES, RATIO }

    record Figure(String name, Unit unit, List<Double> values) {
        double median() {
            List<Double> sorted = values.stream().sorted().toList();
            int n = sorted.size();
            return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
        }

        double min() { return values.stream().mapToDouble(Double::doubleValue).min().orElse(Double.NaN); }

        double max() { return values.stream().mapToDouble(Double::doubleValue).max().orElse(Double.NaN); }
    }

    private final Map<String, Figure> figures = new LinkedHashMap<>();
    private String section = "";

    void add(String name, Unit unit, double value) {
        String key = name.startsWith(" ") ? section + " /" + name : (section = name);
        figures.computeIfAbsent(key, n -> new Figure(name, unit, new ArrayList<>())).values().add(value);
    }

    void addNanos(String name, long nanos) { add(name, Unit.MS, nanos / 1e6); }

    /** The median of a top-level figure, or of {@code detail} under it. */
    double median(String figure, String detail) {
        Figure f = figures.get(detail == null ? figure : figure + " /" + detail);
        return f == null ? Double.NaN : f.median();
    }

    double median(String figure) { return median(figure, null); }

    /** A top-level figure's value in the first run that measured it (the one whose JVM was new), or NaN. */
    double first(String figure) {
        Figure f = figures.get(figure);
        return f == null || f.values().isEmpty() ? Double.NaN : f.values().get(0);
    }

    List<Figure> all() { return List.copyOf(figures.values()); }
}
