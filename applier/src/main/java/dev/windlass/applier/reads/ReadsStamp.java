package dev.windlass.applier.reads;

import java.util.Map;

/**
 * What one cluster's reads would answer, as a value that differs whenever an answer could: per query watched, how many
 * changes its watch has delivered (a new resource version, or a removal), and how many writes this client has sent.
 * Two equal stamps of one cluster mean every read in between would have answered the same bodies without asking the
 * cluster.
 *
 * @param changes per query watched, the changes its watch has delivered so far
 * @param writes  the writes this client has sent or had answered so far
 */
public record ReadsStamp(Map<Query, Long> changes, long writes) {
    public ReadsStamp {
        changes = Map.copyOf(changes);
    }
}
