package dev.windlass.applier.observe;

import dev.windlass.applier.reads.ReadsStamp;
import java.util.Map;

/**
 * What every watch of a set of clusters holds, per cluster (see {@link ReadsStamp}): two equal stamps mean an
 * observation of those clusters in between would have read the same objects. Made locally, asking no cluster.
 */
public record FleetStamp(Map<String, ReadsStamp> clusters) {
    public FleetStamp {
        clusters = Map.copyOf(clusters);
    }

    /**
     * What moved from this stamp to {@code later}, for a log line: each cluster's queries whose watch delivered a change,
     * its writes, or the cluster itself when only one of the two stamps has it. Empty when they are equal.
     */
    public java.util.List<String> movedIn(FleetStamp later) {
        java.util.List<String> out = new java.util.ArrayList<>();
        java.util.Set<String> names = new java.util.TreeSet<>(clusters.keySet());
        names.addAll(later.clusters.keySet());
        for (String cluster : names) {
            ReadsStamp a = clusters.get(cluster), b = later.clusters.get(cluster);
            if (a == null || b == null) {
                out.add(cluster);
                continue;
            }
            if (a.writes() != b.writes()) out.add(cluster + ": " + (b.writes() - a.writes()) + " writes");
            java.util.Set<dev.windlass.applier.reads.Query> queries = new java.util.HashSet<>(a.changes().keySet());
            queries.addAll(b.changes().keySet());
            queries.stream().filter(q -> !java.util.Objects.equals(a.changes().get(q), b.changes().get(q))).map(q -> cluster + ": " + q)
                    .sorted().forEach(out::add);
        }
        return out;
    }
}
