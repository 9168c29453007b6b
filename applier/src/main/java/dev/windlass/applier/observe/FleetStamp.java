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
}
