package dev.windlass.sandbox;

import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * Counts the requests that reached one sandbox cluster's API server over the network, by method and path (query
 * string dropped). Only counters are kept, so a long demo does not grow it beyond the set of distinct paths.
 * Traffic of the simulated kubelet and controllers goes in-process and is never counted: a test that asserts
 * "zero writes" sees only what clients did.
 */
public final class RequestLog {

    /** One counted kind of request. */
    public record Entry(String method, String path) implements Comparable<Entry> {
        @Override public int compareTo(Entry o) {
            int c = path.compareTo(o.path);
            return c != 0 ? c : method.compareTo(o.method);
        }
    }

    private static final Set<String> READS = Set.of("GET", "HEAD");
    private static final Set<String> WRITES = Set.of("POST", "PUT", "PATCH", "DELETE");

    private final Map<Entry, LongAdder> counts = new ConcurrentHashMap<>();

    void record(String method, String path) {
        counts.computeIfAbsent(new Entry(method.toUpperCase(Locale.ROOT), path), e -> new LongAdder()).increment();
    }

    /** GET and HEAD requests, including LISTs, watches and health probes. */
    public long reads() {
        return sum(e -> READS.contains(e.method()));
    }

    /** POST, PUT, PATCH and DELETE requests. */
    public long writes() {
        return sum(e -> WRITES.contains(e.method()));
    }

    public long total() {
        return sum(e -> true);
    }

    public long count(String method) {
        String m = method.toUpperCase(Locale.ROOT);
        return sum(e -> e.method().equals(m));
    }

    public long count(String method, String path) {
        LongAdder n = counts.get(new Entry(method.toUpperCase(Locale.ROOT), path));
        return n == null ? 0 : n.sum();
    }

    /** A sorted copy of all counters. */
    public Map<Entry, Long> snapshot() {
        Map<Entry, Long> copy = new TreeMap<>();
        counts.forEach((e, n) -> copy.put(e, n.sum()));
        return copy;
    }

    public void reset() {
        counts.clear();
    }

    private long sum(java.util.function.Predicate<Entry> which) {
        long total = 0;
        for (Map.Entry<Entry, LongAdder> e : counts.entrySet()) {
            if (which.test(e.getKey())) {
                total += e.getValue().sum();
            }
        }
        return total;
    }

    @Override public String toString() {
        return "RequestLog" + snapshot();
    }
}
